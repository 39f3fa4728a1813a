// Files that matter (checkpoints, sample files, ratings, match records) are written to a
// temporary name in the same folder, flushed, and renamed into place, so a kill at any
// moment leaves either the old complete file or the new complete file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace veletas::util {

// Writes `data` to `path` atomically. Returns an empty string on success, else an error
// message naming the file. Thread-safe for distinct paths.
std::string WriteFileAtomic(const std::string& path, std::string_view data);

// Appends `data` to `path` (created if missing) in one write, as journals do: a kill can
// tear only this append. Returns "" or an error naming the file. Callers serialise appends
// to one path.
std::string AppendFile(const std::string& path, std::string_view data);

// Reads the whole file into `out`. Returns an empty string on success, else an error
// message naming the file.
std::string ReadFile(const std::string& path, std::string& out);

// 64-bit FNV-1a checksum of `data`.
uint64_t Fnv1a64(std::string_view data);

}  // namespace veletas::util
