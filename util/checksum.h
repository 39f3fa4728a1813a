// The checksum of every file and entry the project writes: XXH3 (64 bits) from the xxHash
// library (Debian libxxhash-dev). Files of formats checksummed otherwise (written by earlier
// builds) are refused by their readers with an error naming the versions, never misread.
#pragma once

#include <cstdint>
#include <string_view>

namespace veletas::util {

// XXH3 64-bit hash of `data` (seed 0): the checksum of files written by this build, and a
// well-mixed hash of names (e.g. ladder match seeds). Thread-safe.
uint64_t Checksum64(std::string_view data);

}  // namespace veletas::util
