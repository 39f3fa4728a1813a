#include "util/atomic_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "util/private_file.h"
#include "util/run_dir.h"

namespace veletas::util {
namespace {

namespace fs = std::filesystem;

// Writes all of `data` to `fd`; a failure says why (strerror), prefixed by `what`.
Status WriteAll(int fd, std::string_view data, const std::string& what) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Failure(what + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  return Ok();
}

// The directory holding `path` ("." for a bare file name).
std::string ParentOf(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? std::string(".") : dir.string();
}

// Creates `path` for writing, exclusively and never through a symbolic link. A file or link
// already at that name (a temporary of a killed process that had this pid, or a planted
// link) is removed once (unlink removes a link itself, not its target) and the creation
// retried. Returns the descriptor or -1 with errno set.
int CreateExclusive(const std::string& path, mode_t mode) {
  constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::open(path.c_str(), kFlags, mode);
  if (fd < 0 && errno == EEXIST && ::unlink(path.c_str()) == 0) {
    fd = ::open(path.c_str(), kFlags, mode);
  }
  return fd;
}

// Closes `fd`, keeping the errno of an earlier failure.
void CloseQuietly(int fd) {
  const int saved = errno;
  ::close(fd);
  errno = saved;
}

// Reads the named pipe `fd` (opened non-blocking) to its end and closes it: waits (poll)
// until its writer has written or closed, so that a pipe whose writer has not opened it yet
// is not taken for an empty one. More than `max_bytes` is bad input naming `path`, found
// before more than `max_bytes` are held.
Result<std::string> ReadPipe(int fd, const std::string& path, uint64_t max_bytes) {
  using R = Result<std::string>;
  std::string data;
  char buffer[65536];
  for (;;) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, -1) < 0) {
      if (errno == EINTR) continue;
      CloseQuietly(fd);
      return R::Error(path + ": cannot read: " + std::strerror(errno));
    }
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) {
      CloseQuietly(fd);
      return R::Error(path + ": read failed: " + std::strerror(errno));
    }
    if (n == 0) break;  // the writer closed it
    if (data.size() + static_cast<uint64_t>(n) > max_bytes) {
      ::close(fd);
      return R::Error(path + ": more than the " + std::to_string(max_bytes) +
                      " bytes this reader accepts");
    }
    data.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return data;
}

}  // namespace

Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return Status::Failure(dir + ": cannot open the directory to sync it: " + std::strerror(errno));
  // Some file systems cannot sync a directory (EINVAL): their entries are as durable as
  // they get.
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const std::string err = std::strerror(errno);
    ::close(fd);
    return Status::Failure(dir + ": cannot sync the directory: " + err);
  }
  ::close(fd);
  return Ok();
}

Status CreateDirectories(const std::string& dir) {
  // The missing ancestors, innermost first.
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = fs::path(dir).lexically_normal(); !p.empty(); p = p.parent_path()) {
    const fs::file_status st = fs::status(p, ec);
    if (fs::is_directory(st)) break;
    if (fs::exists(st)) return Status::Error(p.string() + ": exists and is not a directory");
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec) && ec) {
      return Status::Failure(it->string() + ": cannot create the directory: " + ec.message());
    }
    const std::string parent = it->parent_path().empty() ? "." : it->parent_path().string();
    if (Status s = SyncDirectory(parent); !s.ok()) return s;
  }
  return Ok();
}

Status WriteFileAtomicMode(const std::string& path, std::string_view data, mode_t mode) {
  const std::string tmp = TemporaryPath(path);
  const int fd = CreateExclusive(tmp, mode);
  if (fd < 0) return Status::Failure(path + ": cannot create " + tmp + ": " + std::strerror(errno));
  if (Status written = WriteAll(fd, data, path + ": write failed: "); !written.ok()) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return written;
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::Failure(path + ": flush failed: " + err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::Failure(path + ": rename failed: " + err);
  }
  // Make the rename itself durable.
  if (Status s = SyncDirectory(ParentOf(path)); !s.ok())
    return Prefixed(s.error_value(), path + ": ");
  return Ok();
}

Status WriteFileAtomic(const std::string& path, std::string_view data) {
  return WriteFileAtomicMode(path, data, 0644);
}

Status AppendFile(const std::string& path, std::string_view data) {
  constexpr int kFlags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC;
  bool created = false;
  int fd = ::open(path.c_str(), kFlags);
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(path.c_str(), kFlags | O_CREAT | O_EXCL, 0644);
    created = fd >= 0;
    if (fd < 0 && errno == EEXIST) fd = ::open(path.c_str(), kFlags);  // created meanwhile
  }
  if (fd < 0) {
    return Status::Failure(path + ": cannot open for appending: " + std::strerror(errno));
  }
  if (Status written = WriteAll(fd, data, path + ": append failed: "); !written.ok()) {
    ::close(fd);
    return written;
  }
  if (::fdatasync(fd) != 0) {
    CloseQuietly(fd);
    return Status::Failure(path + ": cannot sync the append: " + std::strerror(errno));
  }
  if (::close(fd) != 0) return Status::Failure(path + ": append failed: " + std::strerror(errno));
  if (created) {
    if (Status s = SyncDirectory(ParentOf(path)); !s.ok()) {
      return Prefixed(s.error_value(), path + ": ");
    }
  }
  return Ok();
}

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  using R = Result<std::string>;
  // O_NONBLOCK: opening a named pipe must not wait for a writer here (ReadPipe waits).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return R::Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    CloseQuietly(fd);
    return R::Error(path + ": cannot read: " + std::strerror(errno));
  }
  if (S_ISFIFO(st.st_mode)) return ReadPipe(fd, path, max_bytes);
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return R::Error(path + (S_ISDIR(st.st_mode) ? ": is a directory" : ": is not a regular file") +
                    ", expected a file");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    return R::Error(path + ": " + std::to_string(size) + " bytes, more than the " +
                    std::to_string(max_bytes) + " this reader accepts");
  }
  std::string data(size, '\0');
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::read(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      CloseQuietly(fd);
      return R::Error(path + ": read failed: " + std::strerror(errno));
    }
    if (n == 0) break;  // the file shrank meanwhile
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  data.resize(done);
  return data;
}

}  // namespace veletas::util
