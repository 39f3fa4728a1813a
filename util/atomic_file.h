// Files that matter (checkpoints, sample files, ratings, match records) are written to a
// temporary name in the same folder, synced, and renamed into place, and the folder is synced
// after the rename, so that a kill or a power loss at any moment leaves either the old
// complete file or the new complete file. Journals are appended with one write each and
// synced before the append returns. Temporaries are created exclusively and never through a
// symbolic link (a link planted at a temporary's name is removed, not followed).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::util {

// Writes `data` to `path` atomically and durably (the file and its directory entry are
// synced). On error (a failure naming the file) nothing is left behind. Thread-safe for
// distinct paths.
Status WriteFileAtomic(const std::string& path, std::string_view data);

// Appends `data` to `path` (created if missing, never through a symbolic link) in one
// write, as journals do, and syncs it (and the directory when the file is new) before
// returning: an append that returned survives a power loss, and a kill can tear only this
// append. The error (a failure) names the file. Callers serialise appends to one path.
Status AppendFile(const std::string& path, std::string_view data);

// Syncs the directory `dir` so that the files created, renamed or removed in it survive a
// power loss. The error (a failure) names the directory.
Status SyncDirectory(const std::string& dir);

// Creates `dir` and any missing parents (like mkdir -p) and syncs the parent of each one
// created. An existing directory is fine; an existing file of that name is bad input. The
// error names the directory.
Status CreateDirectories(const std::string& dir);

// Files larger than this are not read whole (ReadFile's default limit).
inline constexpr uint64_t kMaxReadBytes = uint64_t{16} << 30;

// The whole content of the regular file or named pipe at `path`. A pipe (a shell's process
// substitution) is read to its end: this waits for its writer, as cat does, and refuses it
// as soon as more than `max_bytes` came. A missing or unreadable file, anything else (a
// directory, a device, a socket) or a file larger than `max_bytes` is bad input naming it,
// e.g. "run.yaml: is a directory, expected a file". A regular file is never waited on.
// Never holds more than the file's size or `max_bytes`. Thread-safe.
Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes = kMaxReadBytes);

}  // namespace veletas::util
