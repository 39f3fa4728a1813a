// Helpers for directories that long-running commands own (a pipeline run): an exclusive
// lock so that two processes never write one run, and the clean-up of what a killed writer
// left behind: temporary files (util/atomic_file.h names them "<name>.tmp.<pid>") and
// journals of files that were finished ("<name>.part" next to "<name>").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace veletas::util {

// True when `name` (a file name, not a path) is a temporary of WriteFileAtomic or another
// writer of this project: it ends in ".tmp.<digits>" after a non-empty name. Thread-safe.
bool IsTemporaryName(std::string_view name);

// The temporary name this process uses for `path` before renaming it into place.
std::string TemporaryPath(const std::string& path);

// Removes every file under `dir` (recursively) whose name IsTemporaryName, and returns the
// paths removed. Precondition: no other process writes under `dir` (hold a DirectoryLock).
// Files it cannot remove are left and reported in `errors` when given.
std::vector<std::string> RemoveStaleTemporaries(const std::string& dir,
                                                std::vector<std::string>* errors = nullptr);

// Removes every journal "<file>.part" under `dir` (recursively) whose "<file>" exists: a
// writer killed after saving a file but before removing its journal (self-play sample
// files and arena matches keep one) leaves it, and the journal is then obsolete. Returns
// the paths removed. Same precondition and `errors` as RemoveStaleTemporaries.
std::vector<std::string> RemoveFinishedJournals(const std::string& dir,
                                                std::vector<std::string>* errors = nullptr);

// An exclusive advisory lock (flock) on "<dir>/.lock", held until destruction or process
// death (a kill releases it, so a stale lock never blocks a resume). Not copyable.
class DirectoryLock {
 public:
  DirectoryLock() = default;
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  // Takes the lock without waiting. Returns an empty string on success, else a message
  // naming the directory (and the pid recorded by the holder when another process has it).
  std::string Acquire(const std::string& dir);

 private:
  int fd_ = -1;
};

}  // namespace veletas::util
