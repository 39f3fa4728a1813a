#include "app/status_line.h"

#include <unistd.h>

#include <cstdio>

namespace veletas::app {

StatusLine::StatusLine(double log_seconds)
    : tty_(::isatty(STDERR_FILENO) != 0), log_seconds_(log_seconds) {}

void StatusLine::Update(const std::string& text) {
  if (tty_) {
    std::fprintf(stderr, "\r%s\033[K", text.c_str());
    std::fflush(stderr);
    dirty_ = true;
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (last_log_.time_since_epoch().count() != 0 &&
      std::chrono::duration<double>(now - last_log_).count() < log_seconds_) {
    return;
  }
  last_log_ = now;
  std::fprintf(stderr, "%s\n", text.c_str());
}

void StatusLine::Clear() {
  if (tty_ && dirty_) std::fprintf(stderr, "\r\033[K");
  dirty_ = false;
  last_log_ = {};
}

}  // namespace veletas::app
