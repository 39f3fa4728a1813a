// A file whose content changes as soon as it has been opened once (header-only): lets a test
// check that a loader reads a file only once. A loader that opens the file a second time
// (e.g. metadata first, then the weights) sees other bytes.
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace veletas::test_support {

// `path` starts as a named pipe. The first reader that opens it receives `first`; at that
// moment the path is replaced by a regular file holding `later`, which every later open
// reads. Destruction stops waiting for a reader (if none came) and joins.
class SwappedFile {
 public:
  SwappedFile(std::string path, std::string first, std::string later)
      : path_(std::move(path)), first_(std::move(first)), later_(std::move(later)) {
    std::signal(SIGPIPE, SIG_IGN);  // a reader that stops early is an error, not a crash
    std::filesystem::remove(path_);
    if (::mkfifo(path_.c_str(), 0600) != 0) {
      std::perror(("mkfifo " + path_).c_str());
      return;
    }
    thread_ = std::thread([this] { Serve(); });
  }
  ~SwappedFile() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  SwappedFile(const SwappedFile&) = delete;
  SwappedFile& operator=(const SwappedFile&) = delete;

  // True once the first reader has received `first` in full.
  bool Served() const { return served_; }

 private:
  void Serve() {
    int fd = -1;
    // Opening the write end without blocking fails (ENXIO) until a reader has opened it.
    while (!stop_ && (fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK)) < 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (fd < 0) return;
    // The reader holds the pipe itself: the path now names the later content.
    const std::string swap = path_ + ".later";
    std::ofstream(swap, std::ios::binary) << later_;
    std::filesystem::rename(swap, path_);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    size_t at = 0;
    while (at < first_.size()) {
      const ssize_t n = ::write(fd, first_.data() + at, first_.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    ::close(fd);
    served_ = at == first_.size();
  }

  std::string path_, first_, later_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> served_{false};
  std::thread thread_;
};

}  // namespace veletas::test_support
