// Files that matter (checkpoints, sample files, ratings, match records) are written to a
// temporary name in the same folder, flushed, and renamed into place, so a kill at any
// moment leaves either the old complete file or the new complete file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::util {

// Writes `data` to `path` atomically. On error (a failure naming the file) nothing is left
// behind. Thread-safe for distinct paths.
Status WriteFileAtomic(const std::string& path, std::string_view data);

// Appends `data` to `path` (created if missing) in one write, as journals do: a kill can
// tear only this append. With `sync`, the file is flushed to the device (fsync) before
// returning, so that the append also survives a power cut. The error (a failure) names the
// file. Callers serialise appends to one path.
Status AppendFile(const std::string& path, std::string_view data, bool sync = false);

// The whole content of the file at `path`. A missing or unreadable file is bad input naming
// it.
Result<std::string> ReadFile(const std::string& path);

// 64-bit FNV-1a checksum of `data`.
uint64_t Fnv1a64(std::string_view data);

}  // namespace veletas::util
