// Pooling match parts (arena/match_pool.h): totals and Elo of all the games, and parts that
// cannot be pooled (other players, the same match twice, the same games twice) named.
#include "arena/match_pool.h"

#include <gtest/gtest.h>

namespace veletas::arena {
namespace {

MatchRecord Part(const std::string& name, int a_wins, int b_wins) {
  MatchRecord m;
  m.name = name;
  m.size = 10;
  m.a = {"net", "mcts:net.ckpt:64"};
  m.b = {"uct_100000", "uct:100000"};
  for (int i = 0; i < a_wins + b_wins; ++i) {
    MatchGame g;
    g.a_first = i % 2 == 0;
    g.a_won = i < a_wins;
    g.turns = 30;
    m.games.push_back(g);
  }
  return m;
}

TEST(MatchPool, TotalsAndEloAreThoseOfAllTheGames) {
  const std::vector<MatchRecord> parts{Part("chunk_1", 15, 5), Part("chunk_2", 13, 7)};
  auto p = PoolMatches(parts, {"m/chunk_1.json", "m/chunk_2.json"}, {"g1\n", "g2\n"});
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p.value().games, 40);
  EXPECT_EQ(p.value().a_wins, 28);
  EXPECT_EQ(p.value().b_wins, 12);
  const EloEstimate all = EstimateElo(28, 12);
  EXPECT_DOUBLE_EQ(p.value().elo.elo, all.elo);
  EXPECT_DOUBLE_EQ(p.value().elo.ci_low, all.ci_low);
  EXPECT_DOUBLE_EQ(p.value().elo.ci_high, all.ci_high);
  const nlohmann::json j = PooledMatchJson(p.value(), parts);
  EXPECT_EQ(j["format"], "veletas-match-pool");
  EXPECT_EQ(j["games"], 40);
  EXPECT_EQ(j["a_wins"], 28);
  EXPECT_EQ(j["players"]["b"]["spec"], "uct:100000");
  EXPECT_EQ(j["elo"]["bound"], "two_sided");
  ASSERT_EQ(j["parts"].size(), 2u);
  EXPECT_EQ(j["parts"][1]["file"], "m/chunk_2.json");
  EXPECT_EQ(j["parts"][1]["b_wins"], 7);
  const std::string text = PooledMatchText(p.value(), parts);
  EXPECT_NE(text.find("m/chunk_1.json: 15-5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("2 matches pooled, 40 games: net 28 - uct_100000 12 (70.0%)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Elo net - uct_100000: " + FormatElo(all)), std::string::npos) << text;
}

TEST(MatchPool, PartsThatCannotBePooledAreNamed) {
  MatchRecord other = Part("chunk_2", 10, 10);
  other.b.spec = "uct:10000";
  auto p = PoolMatches({Part("chunk_1", 15, 5), other}, {"a.json", "b.json"}, {"", ""});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("b.json: players net (mcts:net.ckpt:64) and uct_100000 (uct:10000)"),
            std::string::npos)
      << p.error();
  MatchRecord smaller = Part("chunk_2", 10, 10);
  smaller.size = 9;
  p = PoolMatches({Part("chunk_1", 15, 5), smaller}, {"a.json", "b.json"}, {"", ""});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("b.json: other rules or board size"), std::string::npos) << p.error();
  p = PoolMatches({Part("chunk_1", 15, 5), Part("chunk_1", 15, 5)}, {"a.json", "b.json"}, {"", ""});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("b.json: the same match (chunk_1) as a.json"), std::string::npos)
      << p.error();
  p = PoolMatches({Part("chunk_1", 15, 5), Part("chunk_2", 15, 5)}, {"a.json", "b.json"},
                  {"game 1\ngame 2\n", "game 1\ngame 2\n"});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("b.json: the same games as a.json (the same seed?)"), std::string::npos)
      << p.error();
}

}  // namespace
}  // namespace veletas::arena
