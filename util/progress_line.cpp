#include "util/progress_line.h"

#include <unistd.h>

#include <iostream>
#include <utility>

#include "util/clock.h"
#include "util/text.h"

namespace veletas::util {

double EtaSeconds(double done, double total, double elapsed_seconds) {
  if (done >= total) return 0.0;
  if (!(done > 0) || !(elapsed_seconds > 0)) return -1.0;
  return elapsed_seconds / done * (total - done);
}

ProgressLine::ProgressLine(std::string label)
    : ProgressLine(std::move(label), std::cerr, ::isatty(STDERR_FILENO) != 0, SteadySeconds) {}

ProgressLine::ProgressLine(std::string label, std::ostream& out, bool terminal, NowFn now)
    : label_(std::move(label)),
      out_(out),
      terminal_(terminal),
      now_(std::move(now)),
      start_(now_()) {}

void ProgressLine::Update(const std::string& text, bool last) {
  const double now = now_();
  if (shown_any_ && !last && now - last_shown_ < IntervalSeconds()) return;
  shown_any_ = true;
  last_shown_ = now;
  const std::string line = label_.empty() ? text : label_ + ": " + text;
  if (terminal_) {
    out_ << "\r" << line << "\x1b[K" << std::flush;
    open_ = true;
  } else {
    out_ << line << "\n" << std::flush;
  }
}

void ProgressLine::Update(const std::string& text, double done, double total) {
  const double eta = EtaSeconds(done, total, now_() - start_);
  Update(text + ", ETA " + FormatDuration(eta), done >= total);
}

void ProgressLine::Done() {
  if (open_) out_ << "\n" << std::flush;
  open_ = false;
  shown_any_ = false;
}

void ProgressLine::Clear() {
  if (open_) out_ << "\r\x1b[K" << std::flush;
  open_ = false;
  shown_any_ = false;
}

}  // namespace veletas::util
