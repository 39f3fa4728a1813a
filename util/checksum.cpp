#include "util/checksum.h"

#include <xxhash.h>

namespace veletas::util {

uint64_t Checksum64(std::string_view data) { return XXH3_64bits(data.data(), data.size()); }

}  // namespace veletas::util
