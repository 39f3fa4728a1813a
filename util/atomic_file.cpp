#include "util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/run_dir.h"

namespace veletas::util {
namespace {

// Writes all of `data` to `fd`; "" or strerror of the failure.
std::string WriteAll(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::strerror(errno);
    }
    done += static_cast<size_t>(n);
  }
  return "";
}

// Flushes the directory holding `path`, so that a file created or renamed there survives a
// power cut. Best effort.
void SyncParentDirectory(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

Status WriteFileAtomic(const std::string& path, std::string_view data) {
  const std::string tmp = TemporaryPath(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Failure(path + ": cannot create " + tmp + ": " + std::strerror(errno));
  if (const std::string err = WriteAll(fd, data); !err.empty()) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return Status::Failure(path + ": write failed: " + err);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::Failure(path + ": flush failed: " + err);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::Failure(path + ": rename failed: " + err);
  }
  SyncParentDirectory(path);  // makes the rename itself durable
  return Ok();
}

Status AppendFile(const std::string& path, std::string_view data, bool sync) {
  const bool created = sync && ::access(path.c_str(), F_OK) != 0;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::Failure(path + ": cannot open for appending: " + std::strerror(errno));
  }
  if (const std::string err = WriteAll(fd, data); !err.empty()) {
    ::close(fd);
    return Status::Failure(path + ": append failed: " + err);
  }
  if (sync && ::fsync(fd) != 0) {
    const std::string err = std::strerror(errno);
    ::close(fd);
    return Status::Failure(path + ": flush failed: " + err);
  }
  if (::close(fd) != 0) return Status::Failure(path + ": append failed: " + std::strerror(errno));
  if (created) SyncParentDirectory(path);
  return Ok();
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<std::string>::Error(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Result<std::string>::Error(path + ": read failed");
  return std::move(buffer).str();
}

uint64_t Fnv1a64(std::string_view data) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001B3ULL;
  }
  return h;
}

}  // namespace veletas::util
