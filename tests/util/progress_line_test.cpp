// util/progress_line.h: the one progress line, timed by an injected clock (no wall clock).
#include "util/progress_line.h"

#include <gtest/gtest.h>

#include <sstream>

namespace veletas::util {
namespace {

struct FakeClock {
  double t = 100.0;
  ProgressLine::NowFn Fn() {
    return [this] { return t; };
  }
};

TEST(EtaSeconds, ScalesTheElapsedTimeToWhatIsLeft) {
  EXPECT_DOUBLE_EQ(EtaSeconds(1, 4, 10), 30.0);
  EXPECT_DOUBLE_EQ(EtaSeconds(3, 4, 30), 10.0);
  EXPECT_DOUBLE_EQ(EtaSeconds(4, 4, 30), 0.0);
  EXPECT_DOUBLE_EQ(EtaSeconds(5, 4, 30), 0.0);
  EXPECT_LT(EtaSeconds(0, 4, 30), 0.0);  // nothing done: unknown
  EXPECT_LT(EtaSeconds(1, 4, 0), 0.0);   // no time passed: unknown
}

TEST(ProgressLine, OffATerminalWritesTheFirstThenAtMostEveryTenSecondsAndTheLast) {
  std::ostringstream out;
  FakeClock clock;
  ProgressLine line("job", out, false, clock.Fn());
  EXPECT_EQ(line.IntervalSeconds(), 10.0);
  line.Update("a");
  clock.t += 9.9;
  line.Update("b");  // too soon
  clock.t += 0.1;
  line.Update("c");
  clock.t += 1;
  line.Update("d");  // too soon
  line.Update("e", true);
  line.Done();
  EXPECT_EQ(out.str(), "job: a\njob: c\njob: e\n");
}

TEST(ProgressLine, OnATerminalRewritesInPlaceAtMostFiveTimesASecond) {
  std::ostringstream out;
  FakeClock clock;
  ProgressLine line("", out, true, clock.Fn());
  EXPECT_EQ(line.IntervalSeconds(), 0.2);
  line.Update("a");
  clock.t += 0.125;
  line.Update("b");  // too soon
  clock.t += 0.125;
  line.Update("c");
  line.Done();
  line.Done();  // nothing open: nothing written
  EXPECT_EQ(out.str(), "\ra\x1b[K\rc\x1b[K\n");
}

TEST(ProgressLine, ClearErasesTheLineAndTheNextIsShownAtOnce) {
  std::ostringstream out;
  FakeClock clock;
  ProgressLine line("x", out, true, clock.Fn());
  line.Update("a");
  line.Clear();
  line.Update("b");  // at the same instant, yet shown: the line was cleared
  EXPECT_EQ(out.str(), "\rx: a\x1b[K\r\x1b[K\rx: b\x1b[K");
}

TEST(ProgressLine, AppendsTheTimeLeftFromItsOwnClock) {
  std::ostringstream out;
  FakeClock clock;
  ProgressLine line("m", out, false, clock.Fn());
  line.Update("0/4", 0, 4);
  clock.t += 10;
  line.Update("1/4", 1, 4);  // 10 s per unit, 3 left
  clock.t += 1;
  line.Update("4/4", 4, 4);  // the last, though within 10 s
  EXPECT_EQ(out.str(), "m: 0/4, ETA ?\nm: 1/4, ETA 30s\nm: 4/4, ETA 0s\n");
}

}  // namespace
}  // namespace veletas::util
