// Helpers for directories that long-running commands own (a pipeline run): an exclusive
// lock so that two processes never write one run, and the clean-up of temporary files
// that a killed writer left behind (util/atomic_file.h names them "<name>.tmp.<pid>").
// Journals ("<name>.part") are their owners' business: a journal left next to its finished
// file is removed when the owner next looks at that file (data/sample_dir.h,
// arena/arena_journal.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace veletas::util {

// True when `name` (a file name, not a path) is a temporary of WriteFileAtomic or another
// writer of this project: it ends in ".tmp.<digits>" after a non-empty name. Thread-safe.
bool IsTemporaryName(std::string_view name);

// The temporary name this process uses for `path` before renaming it into place.
std::string TemporaryPath(const std::string& path);

// Removes every file in `dir` (and its subdirectories when `recursive`) whose name
// IsTemporaryName, and returns the paths removed. Precondition: no other process writes
// there (hold a DirectoryLock on `dir` or a directory above it). Files it cannot remove are
// left and reported in `errors` when given.
std::vector<std::string> RemoveStaleTemporaries(const std::string& dir,
                                                std::vector<std::string>* errors = nullptr,
                                                bool recursive = true);

// An exclusive advisory lock (flock) on "<dir>/.lock", held until destruction or process
// death (a kill releases it, so a stale lock never blocks a resume). Not copyable.
class DirectoryLock {
 public:
  DirectoryLock() = default;
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  // Takes the lock without waiting, creating `dir` (CreateDirectories) when missing. The
  // error names the directory (and the pid recorded by the holder when another process,
  // or another lock of this process, has it).
  Status Acquire(const std::string& dir);

 private:
  int fd_ = -1;
};

// How every command that owns a directory starts (a pipeline run, a self-play output
// directory, a training output directory, the matches of gate and ladder): takes `lock` on
// `dir` (DirectoryLock::Acquire, creating `dir`), then removes the stale temporaries in
// `clean` (`dir` or a directory under it; with its subdirectories when `recursive`), which
// once the lock is held can only be a killed writer's. Returns the paths removed. The error
// (a failure) names the directory.
Result<std::vector<std::string>> LockAndClean(const std::string& dir, DirectoryLock& lock,
                                              const std::string& clean, bool recursive);

}  // namespace veletas::util
