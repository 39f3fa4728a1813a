#include "util/run_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "util/atomic_file.h"

namespace veletas::util {

namespace fs = std::filesystem;

bool IsTemporaryName(std::string_view name) {
  const size_t at = name.rfind(".tmp.");
  if (at == std::string_view::npos || at == 0) return false;
  const std::string_view digits = name.substr(at + 5);
  if (digits.empty()) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::string TemporaryPath(const std::string& path) {
  return path + ".tmp." + std::to_string(::getpid());
}

namespace {

// Appends the temporaries found by `it` (a directory iterator) to `stale`.
template <class Iterator>
void FindTemporaries(const std::string& dir, Iterator it, std::error_code ec,
                     std::vector<fs::path>& stale, std::vector<std::string>* errors) {
  for (const Iterator end; !ec && it != end; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (!ec && !fs::is_directory(st) && IsTemporaryName(it->path().filename().string())) {
      stale.push_back(it->path());
    }
  }
  if (ec && errors) errors->push_back(dir + ": cannot list: " + ec.message());
}

}  // namespace

std::vector<std::string> RemoveStaleTemporaries(const std::string& dir,
                                                std::vector<std::string>* errors, bool recursive) {
  std::vector<std::string> removed;
  std::error_code ec;
  std::vector<fs::path> stale;
  if (recursive) {
    fs::recursive_directory_iterator it(dir, ec);
    FindTemporaries(dir, std::move(it), ec, stale, errors);
  } else {
    fs::directory_iterator it(dir, ec);
    FindTemporaries(dir, std::move(it), ec, stale, errors);
  }
  for (const fs::path& p : stale) {
    if (fs::remove(p, ec)) {
      removed.push_back(p.string());
    } else if (errors) {
      errors->push_back(p.string() + ": cannot remove: " + ec.message());
    }
  }
  return removed;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

Status DirectoryLock::Acquire(const std::string& dir) {
  if (Status created = CreateDirectories(dir); !created.ok()) return created;
  const std::string path = (fs::path(dir) / ".lock").string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Failure(path + ": cannot open the lock file: " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char holder[32] = {0};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    ::close(fd);
    if (err == EWOULDBLOCK) {
      std::string who = n > 0 ? std::string(holder, static_cast<size_t>(n)) : "";
      while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
      return Status::Failure(dir + " is in use by another veletas process" +
                             (who.empty() ? std::string() : " (pid " + who + ")") +
                             "; wait for it to end or stop it first");
    }
    return Status::Failure(path + ": cannot lock: " + std::strerror(err));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // The pid is only informative; the lock itself is held.
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  return Ok();
}

Result<std::vector<std::string>> LockAndClean(const std::string& dir, DirectoryLock& lock,
                                              const std::string& clean, bool recursive) {
  if (Status locked = lock.Acquire(dir); !locked.ok()) return locked.error_value();
  std::error_code ec;
  if (!fs::exists(clean, ec)) return std::vector<std::string>();
  std::vector<std::string> errors;
  std::vector<std::string> removed = RemoveStaleTemporaries(clean, &errors, recursive);
  if (!errors.empty()) return Error{errors.front(), ErrorKind::kFailure};
  return removed;
}

}  // namespace veletas::util
