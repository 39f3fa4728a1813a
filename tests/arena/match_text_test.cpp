// arena/match_text.h: the words of a match.
#include "arena/match_text.h"

#include <gtest/gtest.h>

namespace veletas::arena {
namespace {

TEST(MatchText, ProgressNamesTheSidesAndTheSpeed) {
  ArenaProgress p;
  p.games_done = 3;
  p.games_total = 10;
  p.a_wins = 2;
  p.b_wins = 1;
  p.seconds = 6;
  EXPECT_EQ(ProgressText(p, "gen_4", "gen_3"), "3/10 games, gen_4 2 - 1 gen_3, 0.50 games/s");
  EXPECT_EQ(ProgressText(p), "3/10 games, 2 - 1, 0.50 games/s");
  p.seconds = 0;  // no time yet: no division by zero
  EXPECT_EQ(ProgressText(p), "3/10 games, 2 - 1, 0.00 games/s");
}

}  // namespace
}  // namespace veletas::arena
