// One updating status line on stderr: rewritten in place (carriage return) on a terminal,
// printed as a plain log line at most every `log_seconds` otherwise. Not thread-safe.
#pragma once

#include <chrono>
#include <string>

#include "selfplay/selfplay_stats.h"

namespace veletas::app {

class StatusLine {
 public:
  explicit StatusLine(double log_seconds = 10.0);
  // Shows `text` (one line, no newline).
  void Update(const std::string& text);
  // Ends the current line on a terminal (so the next output starts on a new line).
  void Clear();
  bool IsTerminal() const { return tty_; }

 private:
  bool tty_;
  bool dirty_ = false;
  double log_seconds_;
  std::chrono::steady_clock::time_point last_log_{};
};

// "1h02m", "3m07s", "12s"; "?" for a negative value.
using selfplay::FormatDuration;

}  // namespace veletas::app
