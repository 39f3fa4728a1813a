// The one progress line of the project, on stderr: on a terminal it is rewritten in place at
// most 5 times a second; otherwise (a log file, a pipe) it is a plain line at most every 10
// seconds, and the first and the last are always written. With EtaSeconds and FormatDuration
// (util/text.h) for the time left.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace veletas::util {

// Seconds left when `done` of `total` units took `elapsed_seconds` at a steady rate; 0 when
// all is done, negative (unknown) when nothing is done yet or no time has passed.
double EtaSeconds(double done, double total, double elapsed_seconds);

class ProgressLine {
 public:
  // Seconds on a steady clock (any origin).
  using NowFn = std::function<double()>;
  static constexpr double kTerminalSeconds = 0.2;  // at most 5 rewrites a second
  static constexpr double kLogSeconds = 10.0;      // at most a log line every 10 seconds

  // A line on stderr, a terminal when isatty(stderr), timed by the steady clock. Each line is
  // "<label>: <text>" (just the text when `label` is empty).
  explicit ProgressLine(std::string label = "");
  // The same on `out`, a terminal or not as `terminal` says, timed by `now` (for tests).
  ProgressLine(std::string label, std::ostream& out, bool terminal, NowFn now);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Shows `text` (one line, no newline) unless one was shown less than IntervalSeconds()
  // ago; the first text and a `last` one are always shown.
  void Update(const std::string& text, bool last = false);
  // Update with ", ETA <duration>" appended: the time left when `done` of `total` units took
  // the time since this line was made; last when done >= total.
  void Update(const std::string& text, double done, double total);
  // Ends the line shown on a terminal with a newline, so that it stays; the next text is
  // shown at once.
  void Done();
  // Erases the line shown on a terminal (for other output to take its place); the next text
  // is shown at once.
  void Clear();

  bool IsTerminal() const { return terminal_; }
  // The least time between two lines shown: kTerminalSeconds or kLogSeconds.
  double IntervalSeconds() const { return terminal_ ? kTerminalSeconds : kLogSeconds; }

 private:
  std::string label_;
  std::ostream& out_;
  bool terminal_;
  NowFn now_;
  double start_;
  double last_shown_ = 0;
  bool shown_any_ = false;  // since construction, Done or Clear
  bool open_ = false;       // a terminal line without its newline
};

}  // namespace veletas::util
