// The `arena` config section (with `gate` and `ladder`): defaults, every key read, and
// range, type and consistency errors naming the file, line and key.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "tests/config/config_test_util.h"

namespace veletas::config {
namespace {

std::string ArenaError(const std::string& yaml, arena::ArenaSettings& out) {
  return testing::ParseError("arena", yaml, ParseArenaSection, out);
}

TEST(ConfigArena, EmptySectionKeepsTheDefaults) {
  arena::ArenaSettings s;
  ASSERT_EQ(ArenaError("", s), "");
  const arena::ArenaSettings d;
  EXPECT_EQ(s.arena.simulations, d.arena.simulations);
  EXPECT_EQ(s.arena.games_in_parallel, d.arena.games_in_parallel);
  EXPECT_EQ(s.arena.threads, d.arena.threads);
  EXPECT_EQ(s.arena.opening_turns, 1);
  EXPECT_EQ(s.gate.config.method, arena::GateMethod::kSprt);
  EXPECT_EQ(s.gate.config.sprt.elo1, d.gate.config.sprt.elo1);
  EXPECT_EQ(s.gate.config.max_games, d.gate.config.max_games);
  EXPECT_EQ(s.gate.batch_games, d.gate.batch_games);
  EXPECT_EQ(s.ladder.uct_anchors, (std::vector<int>{100, 1000}));
  EXPECT_EQ(s.ladder.previous_generations, d.ladder.previous_generations);
  // The defaults themselves make a usable gate.
  EXPECT_TRUE(d.gate.Validate().ok());
}

TEST(ConfigArena, ReadsEveryKey) {
  arena::ArenaSettings s;
  const std::string yaml =
      "  simulations: 64\n  games_in_parallel: 128\n  threads: 4\n  opening_turns: 2\n"
      "  seed: 99\n"
      "  gate:\n    method: fixed_games\n    elo0: -10\n    elo1: 20\n    alpha: 0.1\n"
      "    beta: 0.2\n    max_games: 600\n    games: 300\n    threshold: 0.6\n"
      "    batch_games: 50\n"
      "  ladder:\n    uct_anchors: [50, 500, 5000]\n    anchor_games: 60\n"
      "    games_vs_anchors: 30\n    previous_generations: 3\n    games_vs_previous: 20\n";
  ASSERT_EQ(ArenaError(yaml, s), "");
  EXPECT_EQ(s.arena.simulations, 64);
  EXPECT_EQ(s.arena.games_in_parallel, 128);
  EXPECT_EQ(s.arena.threads, 4);
  EXPECT_EQ(s.arena.opening_turns, 2);
  EXPECT_EQ(s.arena.seed, 99u);
  EXPECT_EQ(s.gate.config.method, arena::GateMethod::kFixedGames);
  EXPECT_EQ(s.gate.config.sprt.elo0, -10.0);
  EXPECT_EQ(s.gate.config.sprt.elo1, 20.0);
  EXPECT_EQ(s.gate.config.sprt.alpha, 0.1);
  EXPECT_EQ(s.gate.config.sprt.beta, 0.2);
  EXPECT_EQ(s.gate.config.max_games, 600);
  EXPECT_EQ(s.gate.config.games, 300);
  EXPECT_EQ(s.gate.config.threshold, 0.6);
  EXPECT_EQ(s.gate.batch_games, 50);
  EXPECT_EQ(s.ladder.uct_anchors, (std::vector<int>{50, 500, 5000}));
  EXPECT_EQ(s.ladder.anchor_games, 60);
  EXPECT_EQ(s.ladder.games_vs_anchors, 30);
  EXPECT_EQ(s.ladder.previous_generations, 3);
  EXPECT_EQ(s.ladder.games_vs_previous, 20);
}

TEST(ConfigArena, RejectsBadValuesNamingFileLineAndKey) {
  struct Case {
    const char* yaml;
    const char* expected;  // part of the error
  };
  const Case cases[] = {
      {"  simulations: 0\n", "test.yaml:2: arena.simulations: 0 is out of range [1, 1000000]"},
      {"  games_in_parallel: 0\n", "arena.games_in_parallel: 0 is out of range"},
      {"  threads: 0\n", "arena.threads: 0 is out of range"},
      {"  opening_turns: 21\n", "arena.opening_turns: 21 is out of range [0, 20]"},
      {"  seed: -1\n", "arena.seed: -1 is out of range"},
      {"  gate:\n    method: elo\n",
       "test.yaml:3: arena.gate.method: \"elo\" is not one of: sprt, fixed_games"},
      {"  gate:\n    elo0: 10\n    elo1: 5\n",
       "test.yaml:4: arena.gate.elo1: 5 must be greater than elo0 (10)"},
      {"  gate:\n    alpha: 0\n", "arena.gate.alpha: 0 is out of range"},
      {"  gate:\n    beta: 0.7\n", "arena.gate.beta: 0.7 is out of range"},
      {"  gate:\n    max_games: -1\n", "arena.gate.max_games: -1 is out of range"},
      {"  gate:\n    games: 0\n", "arena.gate.games: 0 is out of range"},
      {"  gate:\n    threshold: 1.5\n", "arena.gate.threshold: 1.5 is out of range"},
      {"  gate:\n    batch_games: 9\n",
       "test.yaml:3: arena.gate.batch_games: 9 is odd; games are played in pairs"},
      {"  gate:\n    batch_games: 0\n", "arena.gate.batch_games: 0 is out of range"},
      {"  gate:\n    elo2: 3\n", "test.yaml:3: unknown key \"arena.gate.elo2\""},
      {"  gate: 5\n", "arena.gate: expected a mapping"},
      {"  ladder:\n    uct_anchors: [100, 0]\n", "arena.ladder.uct_anchors: 0 is out of range"},
      {"  ladder:\n    uct_anchors: 100\n", "arena.ladder.uct_anchors: expected a list"},
      {"  ladder:\n    anchor_games: -2\n", "arena.ladder.anchor_games: -2 is out of range"},
      {"  ladder:\n    games_vs_anchors: x\n",
       "arena.ladder.games_vs_anchors: expected an integer"},
      {"  ladder:\n    previous_generations: 1001\n",
       "arena.ladder.previous_generations: 1001 is out of range"},
      {"  ladder:\n    games_vs_previous: -1\n",
       "arena.ladder.games_vs_previous: -1 is out of range"},
      {"  ladder:\n    anchors: [1]\n", "unknown key \"arena.ladder.anchors\""},
      {"  games: 5\n", "test.yaml:2: unknown key \"arena.games\""},
  };
  for (const Case& c : cases) {
    arena::ArenaSettings out;
    const std::string error = ArenaError(c.yaml, out);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.yaml << " gave: " << error;
  }
}

TEST(ConfigArena, WholeConfigHasTheSection) {
  auto config =
      LoadConfigFromString("arena:\n  simulations: 32\n  gate:\n    elo1: 80\n", "run.yaml");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config.value().arena.arena.simulations, 32);
  EXPECT_EQ(config.value().arena.gate.config.sprt.elo1, 80.0);
  EXPECT_NE(config.value().resolved_yaml.find("batch_games: 40"), std::string::npos);
  EXPECT_NE(config.value().resolved_yaml.find("games_vs_previous: 40"), std::string::npos);
}

}  // namespace
}  // namespace veletas::config
