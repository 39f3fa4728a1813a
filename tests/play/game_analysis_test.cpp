// Game analysis: one entry per move, win rates seen by the mover, exact results at the end,
// and a constructed blunder marked "??".
#include "play/game_analysis.h"

#include <gtest/gtest.h>

#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "tests/play/test_util.h"

namespace veletas::play {
namespace {

using rules::RuleSet;

TEST(GameAnalysis, MarksFollowTheThresholds) {
  AnalysisOptions o;
  EXPECT_EQ(MarkFor(0.25f, o), "??");
  EXPECT_EQ(MarkFor(0.15f, o), "?");
  EXPECT_EQ(MarkFor(0.05f, o), "");
  EXPECT_EQ(MarkFor(-0.4f, o), "");
  o.blunder_drop = 0.5f;
  EXPECT_EQ(MarkFor(0.25f, o), "?");
}

TEST(GameAnalysis, ConstructedBlunderIsMarked) {
  const testing::BlunderRecord b = testing::FindBlunderRecord(1);
  auto game = rules::PlayRecord(RuleSet::kStandard, 7, b.record);
  ASSERT_TRUE(game.ok()) << game.error();
  // Neutral evaluations (uniform priors, value 0): only the solver knows anything, and it
  // sees that the last move lets the opponent win at once.
  search::UniformEvaluator eval;
  search::SearchConfig c = search::ForPlay(search::SearchConfig{});
  auto searcher = TurnSearcher::Neural(eval, c, 1);
  AnalysisOptions o;
  o.budget.visits = 100;
  int calls = 0;
  const auto moves = AnalyseGame(game.value(), *searcher, o, [&](const MoveAnalysis&) { ++calls; });
  ASSERT_EQ(static_cast<int>(moves.size()), b.moves);
  EXPECT_EQ(calls, b.moves);
  for (int i = 0; i < b.moves; ++i) {
    const MoveAnalysis& m = moves[i];
    EXPECT_EQ(m.index, i);
    const rules::Position& before = game.value().before[i];
    EXPECT_EQ(m.player, before.ToMovePlayer());
    EXPECT_EQ(m.move, rules::TurnToString(before, game.value().turns[i]));
    EXPECT_TRUE(rules::ParseTurn(before, m.best_move).ok()) << m.best_move;
    EXPECT_GE(m.before, 0.0f);
    EXPECT_LE(m.before, 1.0f);
    EXPECT_GE(m.after, 0.0f);
    EXPECT_LE(m.after, 1.0f);
    EXPECT_FLOAT_EQ(m.drop, m.before - m.after);
    EXPECT_EQ(m.mark, MarkFor(m.drop, o));
  }
  const MoveAnalysis& last = moves.back();
  EXPECT_EQ(last.after, 0.0f) << "the opponent's immediate win was not found";
  EXPECT_GT(last.before, 0.3f);
  EXPECT_EQ(last.mark, "??");

  // From a later move on: only those moves, and the same verdict on the blunder.
  o.first_move = b.moves - 1;
  const auto tail = AnalyseGame(game.value(), *searcher, o, nullptr);
  ASSERT_EQ(tail.size(), 1u);
  EXPECT_EQ(tail[0].index, b.moves - 1);
  EXPECT_EQ(tail[0].mark, "??");
}

TEST(GameAnalysis, TheLastMoveOfAFinishedGameIsExact) {
  const auto g = testing::PlayRandomGame(RuleSet::kStandard, 7, 5);
  auto game = rules::PlayRecord(RuleSet::kStandard, 7,
                                testing::RecordPrefix(g, static_cast<int>(g.turns.size())));
  ASSERT_TRUE(game.ok()) << game.error();
  auto searcher = TurnSearcher::Uct(1.0f, 1);
  AnalysisOptions o;
  o.budget.visits = 200;
  o.first_move = static_cast<int>(g.turns.size()) - 2;
  const auto moves = AnalyseGame(game.value(), *searcher, o, nullptr);
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_FALSE(moves[0].after_exact);
  EXPECT_TRUE(moves[1].after_exact);
  // The last mover won (a shot ends the game with the shooter's claim or the opponent's).
  const bool mover_won = g.final.Winner() == g.before.back().ToMove();
  EXPECT_EQ(moves[1].after, mover_won ? 1.0f : 0.0f);
  // The second-to-last move's "after" is the last mover's estimate, seen by the other player.
  EXPECT_NE(moves[0].player, moves[1].player);
  EXPECT_NEAR(moves[0].after, 1.0f - moves[1].before, 1e-6);
}

}  // namespace
}  // namespace veletas::play
