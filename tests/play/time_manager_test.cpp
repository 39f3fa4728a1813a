// The time manager: a move's time from the clock never exceeds what the clock holds (less
// the reserve), spends the increment, and spends everything usable before a time control.
#include "play/time_manager.h"

#include <gtest/gtest.h>

namespace veletas::play {
namespace {

TEST(TimeManager, NeverMoreThanTheClockLessTheReserve) {
  const TimeManagerSettings s;
  for (int64_t remaining : {0LL, 1LL, 49LL, 50LL, 51LL, 100LL, 1000LL, 60000LL, 3600000LL}) {
    for (int64_t inc : {0LL, 100LL, 5000LL, 1000000LL}) {
      for (int to_go : {0, 1, 2, 40}) {
        const int64_t t = MoveTimeMs({remaining, inc, to_go}, s);
        EXPECT_GE(t, 1);
        EXPECT_LE(t, std::max<int64_t>(1, remaining - s.reserve_ms))
            << remaining << " " << inc << " " << to_go;
      }
    }
  }
}

TEST(TimeManager, SuddenDeathSpreadsTheTimeOverTheExpectedMoves) {
  TimeManagerSettings s;
  s.reserve_ms = 0;
  s.expected_moves = 20;
  EXPECT_EQ(MoveTimeMs({60000, 0, 0}, s), 3000);
  // The increment is spent too (nine tenths of it), on top of the share.
  EXPECT_EQ(MoveTimeMs({60000, 1000, 0}, s), 3900);
  // Running low: the share shrinks with the clock.
  EXPECT_LT(MoveTimeMs({6000, 0, 0}, s), MoveTimeMs({60000, 0, 0}, s));
}

TEST(TimeManager, MovesToGoAndTheShareCap) {
  TimeManagerSettings s;
  s.reserve_ms = 100;
  // The last move before the time control may use everything but the reserve.
  EXPECT_EQ(MoveTimeMs({10100, 0, 1}, s), 10000);
  EXPECT_EQ(MoveTimeMs({10100, 0, 4}, s), 2500);
  // A huge increment is capped at max_share of the usable time.
  EXPECT_EQ(MoveTimeMs({10100, 100000, 0}, s), 4000);
}

}  // namespace
}  // namespace veletas::play
