#include "util/run_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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

std::vector<std::string> RemoveStaleTemporaries(const std::string& dir,
                                                std::vector<std::string>* errors) {
  std::vector<std::string> removed;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) {
    if (errors) errors->push_back(dir + ": cannot list: " + ec.message());
    return removed;
  }
  std::vector<fs::path> stale;
  for (; it != end; it.increment(ec)) {
    if (ec) {
      if (errors) errors->push_back(dir + ": cannot list: " + ec.message());
      break;
    }
    if (it->is_regular_file(ec) && IsTemporaryName(it->path().filename().string())) {
      stale.push_back(it->path());
    }
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
  const std::string path = (fs::path(dir) / ".lock").string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
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

}  // namespace veletas::util
