// The browser page's C API (web/api.h), natively: games driven by clicks and moves, their
// JSON state, stepped searches equal to play::TurnSearcher's, and batches encoded and
// decoded as the native evaluator does. The same code runs in the page as WebAssembly
// (tests/web/browser_test.cpp checks it there).
#include "web/api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/base/features.h"
#include "play/turn_search.h"
#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "tests/play/test_util.h"

namespace veletas::web {
namespace {

using nlohmann::json;
using rules::Position;
using rules::RuleSet;

json State(VzGame* g, int ply = -1) { return json::parse(vz_game_state(g, ply)); }

TEST(WebApi, RejectsUnsupportedGamesAndSettings) {
  EXPECT_EQ(vz_game_new("standard", 8), nullptr);
  EXPECT_EQ(vz_game_new("modern", 7), nullptr);
  EXPECT_EQ(vz_game_new(nullptr, 7), nullptr);
  EXPECT_EQ(vz_search_new("alphabeta", 8, 1, "network"), nullptr);
  EXPECT_EQ(vz_search_new("puct", 0, 1, "network"), nullptr);
  EXPECT_EQ(vz_search_new("puct", 8, -1, "network"), nullptr);
  EXPECT_EQ(vz_search_new("puct", 8, 1, "hash:x"), nullptr);
  EXPECT_EQ(vz_search_new("puct", 8, 1, "torch"), nullptr);
  EXPECT_EQ(vz_batch_new("classic", 11, 4, 1), nullptr);
  const json info = json::parse(vz_info());
  EXPECT_EQ(info["feature_version"], model::kFeatureVersion);
  ASSERT_EQ(info["planes"].size(), static_cast<size_t>(model::kNumPlanes));
  EXPECT_EQ(info["planes"][0], model::PlaneName(0));
}

TEST(WebApi, GameFromClicksMovesAndRecords) {
  VzGame* g = vz_game_new("standard", 7);
  ASSERT_NE(g, nullptr);
  json s = State(g);
  EXPECT_EQ(s["pending"], "setup_shooter");
  EXPECT_EQ(s["choice"]["decision"], "setup_shooter");
  EXPECT_EQ(s["board"].size(), 7u);
  EXPECT_EQ(s["turns"], 0);
  // Black's setup by clicks: shooter d4, stone a1.
  auto sq = [](const char* name) { return *rules::ParseSquare(7, name); };
  EXPECT_EQ(std::string(vz_game_choose(g, sq("d4"))), "");
  s = State(g);
  EXPECT_EQ(s["choice"]["decision"], "setup_stone");
  EXPECT_EQ(s["board"][3], "...S...");  // row 4 (top row first)
  EXPECT_EQ(std::string(vz_game_choose(g, sq("a1"))), "");
  s = State(g);
  EXPECT_EQ(s["turns"], 1);
  EXPECT_EQ(s["moves"], json::array({"d4/a1"}));
  EXPECT_EQ(s["pending"], "pie");
  EXPECT_EQ(s["choice"]["decision"], "pie");
  EXPECT_TRUE(s["choice"]["pass"]);
  EXPECT_EQ(s["last"], json::array({sq("d4"), sq("a1")}));
  // White declines the swap by placing e3 first, then c5: played sorted as c5,e3.
  EXPECT_EQ(std::string(vz_game_choose(g, sq("e3"))), "");
  s = State(g);
  EXPECT_EQ(s["choice"]["placing"], json::array({sq("e3")}));
  EXPECT_EQ(s["board"][4], ".......");  // not on the board until the set is complete
  EXPECT_EQ(std::string(vz_game_choose(g, sq("c5"))), "");
  EXPECT_EQ(std::string(vz_game_choose(g, sq("g7"))), "");
  s = State(g);
  EXPECT_EQ(s["moves"], json::array({"d4/a1", "c5,e3/g7"}));
  // The legal moves are those `veletas moves` prints.
  auto game = rules::PlayRecord(RuleSet::kStandard, 7, "d4/a1 c5,e3/g7");
  ASSERT_TRUE(game.ok());
  EXPECT_EQ(json::parse(vz_game_moves(g)), json(rules::SortedMoveNames(game.value().final)));
  // Moves in notation; errors name the move; undo.
  const std::string bad = vz_game_play(g, "d4-d9/a1");
  EXPECT_NE(bad.find("illegal move \"d4-d9/a1\""), std::string::npos) << bad;
  EXPECT_EQ(std::string(vz_game_play(g, "d5")), "");
  EXPECT_EQ(State(g)["turns"], 3);
  EXPECT_EQ(vz_game_undo(g), 1);
  EXPECT_EQ(State(g)["turns"], 2);
  // Positions of the game by ply.
  EXPECT_EQ(State(g, 0)["pending"], "setup_shooter");
  EXPECT_FALSE(State(g, 0).contains("choice"));
  EXPECT_EQ(State(g, 1)["last"], json::array({sq("d4"), sq("a1")}));
  // Records: a bad one names the move and leaves the game as it was.
  const std::string error = vz_game_load(g, "d4/a1 swap zz9");
  EXPECT_NE(error.find("move 3"), std::string::npos) << error;
  EXPECT_EQ(State(g)["turns"], 2);
  EXPECT_EQ(std::string(vz_game_load(g, "d4/a1 swap")), "");
  s = State(g);
  EXPECT_EQ(s["black_player"], 1);
  EXPECT_EQ(s["to_move"], "white");
  EXPECT_EQ(s["to_move_player"], 0);
  vz_game_free(g);
}

TEST(WebApi, ClickedGameToTheEndReportsTheWinner) {
  const auto g = play::testing::PlayRandomGame(RuleSet::kClassic, 7, 3);
  VzGame* game = vz_game_new("classic", 7);
  for (size_t i = 0; i < g.turns.size(); ++i) {
    // Each turn's actions clicked in order (setup shooters come sorted, any order works).
    const rules::Turn& t = g.turns[i];
    for (int k = 0; k < t.length; ++k) {
      ASSERT_EQ(std::string(vz_game_choose(game, t[k])), "") << i;
    }
    ASSERT_EQ(State(game)["turns"], static_cast<int>(i) + 1);
  }
  const json s = State(game);
  EXPECT_TRUE(s["terminal"]);
  EXPECT_EQ(s["winner"], rules::ColorName(*g.final.Winner()));
  EXPECT_FALSE(s.contains("choice"));
  EXPECT_EQ(std::string(vz_game_choose(game, 0)), "the game is over");
  vz_game_free(game);
}

// The C API's stepped search with the hash test evaluator plays the same game as
// TurnSearcher::Search with search::HashEvaluator, the same seed and budget.
TEST(WebApi, SteppedSearchPlaysTheNativeSearchsGame) {
  search::HashEvaluator eval(7);
  auto native = play::TurnSearcher::Neural(eval, search::ForPlay(search::SearchConfig{}), 3);
  VzSearch* s = vz_search_new("puct", 8, 3, "hash:7");
  ASSERT_NE(s, nullptr);
  Position pos = Position::Initial(RuleSet::kStandard, 7);
  std::string record;
  int turns = 0;
  while (!pos.IsTerminal() && turns < 80) {
    const play::TurnAnalysis a = native->Search(pos, {32, 0}, 3);
    ASSERT_EQ(std::string(vz_search_begin(s, "standard", 7, record.c_str(), 32, 0, 3)), "");
    while (vz_search_collect(s, 0) > 0) vz_search_provide_builtin(s);
    ASSERT_EQ(vz_search_done(s), 1);
    const json r = json::parse(vz_search_result(s));
    const std::string move = rules::TurnToString(pos, a.best.turn);
    ASSERT_EQ(r["move"], move) << record;
    EXPECT_FLOAT_EQ(r["win_rate"].get<float>(), a.best.win_rate);
    EXPECT_EQ(r["simulations"], a.simulations);
    EXPECT_EQ(r["candidates"].size(), a.candidates.size());
    record += (record.empty() ? "" : " ") + move;
    rules::ApplyTurn(pos, a.best.turn);
    ++turns;
  }
  EXPECT_TRUE(pos.IsTerminal());
  const std::string over = vz_search_begin(s, "standard", 7, record.c_str(), 32, 0, 3);
  EXPECT_EQ(over, "the game is over");
  EXPECT_NE(std::string(vz_search_begin(s, "standard", 7, "e3/e4 zz", 32, 0, 3)), "");
  EXPECT_NE(std::string(vz_search_begin(s, "standard", 7, "", 0, 0, 3)), "");
  vz_search_free(s);
}

// Leaves encoded for the network, and network outputs decoded, as NetworkEvaluator does.
TEST(WebApi, NetworkLeavesAreEncodedAndDecodedAsNatively) {
  VzSearch* s = vz_search_new("puct", 8, 1, "network");
  ASSERT_EQ(std::string(vz_search_begin(s, "standard", 9, "d4,f6/a1", 16, 0, 2)), "");
  const int k = vz_search_collect(s, 9);
  ASSERT_EQ(k, 1);  // the root first
  const auto pos = rules::PlayRecord(RuleSet::kStandard, 9, "d4,f6/a1").value().final;
  std::vector<float> planes(model::PlanesSize(9));
  model::EncodePosition(pos, 9, planes.data());
  EXPECT_EQ(std::vector<float>(vz_search_planes(s), vz_search_planes(s) + planes.size()), planes);
  // Logits favouring the swap: the search's root prior follows the softmax.
  std::vector<float> logits(model::CanvasActions(9), 0.0f);
  logits[81] = 5.0f;
  const float value = 0.25f;
  vz_search_provide_network(s, logits.data(), &value);
  int rounds = 0;
  while (int n = vz_search_collect(s, 9)) {
    std::vector<float> l(n * model::CanvasActions(9), 0.0f), v(n, 0.0f);
    vz_search_provide_network(s, l.data(), v.data());
    ++rounds;
  }
  EXPECT_GT(rounds, 1);
  EXPECT_EQ(json::parse(vz_search_result(s))["move"], "swap");
  vz_search_free(s);

  // A batch of sample positions on a larger canvas: planes as EncodeBatch, policies as
  // DecodeOutput.
  VzBatch* b = vz_batch_new("classic", 7, 6, 4);
  ASSERT_NE(b, nullptr);
  const auto sample = model::SamplePositions(RuleSet::kClassic, 7, 6, 4);
  model::EncodedBatch expected;
  model::EncodeBatch(sample, 9, expected);
  const int n = vz_batch_encode(b, 0, 6, 9);
  ASSERT_EQ(n, static_cast<int>(expected.planes.size()));
  EXPECT_EQ(std::vector<float>(vz_batch_planes(b), vz_batch_planes(b) + n), expected.planes);
  EXPECT_EQ(vz_batch_encode(b, 0, 6, 6), 0);  // canvas smaller than the board
  std::vector<float> l(6 * model::CanvasActions(9));
  for (size_t i = 0; i < l.size(); ++i) l[i] = static_cast<float>(i % 13) * 0.1f;
  std::vector<float> v = {0.1f, -0.2f, 0.3f, 0.0f, 0.5f, -0.9f};
  vz_batch_decode(b, l.data(), v.data());
  for (int i = 0; i < 6; ++i) {
    search::EvalOutput out;
    model::DecodeOutput(expected, i, 7, l.data() + i * model::CanvasActions(9), v[i], out);
    for (int a = 0; a < rules::kMaxActions; ++a) {
      EXPECT_EQ(vz_batch_policy(b)[i * rules::kMaxActions + a], out.policy[a]);
    }
    EXPECT_EQ(vz_batch_values(b)[i], v[i]);
  }
  const json hashes = json::parse(vz_batch_hashes(b));
  ASSERT_EQ(hashes.size(), 6u);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(sample[2].Hash()));
  EXPECT_EQ(hashes[2], text);
  vz_batch_free(b);
}

TEST(WebApi, BenchTreeMeasuresSearches) {
  const json r = json::parse(vz_bench_tree("standard", 7, "puct", 64, 2, 8));
  EXPECT_GT(r["sims_per_second"].get<double>(), 0.0);
  EXPECT_GT(r["nodes_per_search"].get<double>(), 32.0);
  EXPECT_TRUE(json::parse(vz_bench_tree("standard", 7, "minimax", 64, 2, 8)).contains("error"));
}

}  // namespace
}  // namespace veletas::web
