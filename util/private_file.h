// Files that hold secrets (Redis passwords): written as util::WriteFileAtomic writes files
// (temporary name, synced, renamed, directory synced), but created with a mode of the
// caller's choice, so that a file of mode 0600 is never readable by others, not even while
// it is being written.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::util {

// WriteFileAtomic (util/atomic_file.h) creating the file with `mode` (less the umask).
Status WriteFileAtomicMode(const std::string& path, std::string_view data, mode_t mode);

}  // namespace veletas::util
