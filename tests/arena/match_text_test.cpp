// arena/match_text.h: the words of a match.
#include "arena/match_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

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

TEST(MatchText, ANewMatchIsNamedAfterItsPlayersAndNeverOverwritesOne) {
  const std::string dir = ::testing::TempDir() + "/match_text_names";
  std::filesystem::remove_all(dir);
  auto first = NewMatchName(dir, std::nullopt, "gen_2", "random");
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first.value(), "gen_2-vs-random");
  MatchRecord m;
  m.name = first.value();
  m.a.name = "gen_2";
  m.b.name = "random";
  ASSERT_TRUE(WriteMatchRecord(dir, m).ok());
  auto second = NewMatchName(dir, std::nullopt, "gen_2", "random");
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second.value(), "gen_2-vs-random-2");
  auto taken = NewMatchName(dir, std::string("gen_2-vs-random"), "a", "b");
  ASSERT_FALSE(taken.ok());
  EXPECT_NE(taken.error().find("exists; choose another --name or --out"), std::string::npos);
  auto bad = NewMatchName(dir, std::string("../x"), "a", "b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("--name: ", 0), 0u) << bad.error();
}

}  // namespace
}  // namespace veletas::arena
