#include "search/fake_evaluators.h"

#include <gtest/gtest.h>

#include <cmath>

#include "search/rollout_evaluator.h"
#include "search/terminal_value.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::RandomPositions;

// Checks the EvalOutput contract: a distribution over exactly the legal actions.
void ExpectDistributionOverLegal(const rules::Position& p, const EvalOutput& out) {
  const rules::ActionSet legal = p.LegalActions();
  double sum = 0;
  for (int a = 0; a < rules::kMaxActions; ++a) {
    const bool is_legal = a <= p.PassAction() && legal.Contains(a, p.Size());
    if (is_legal) {
      EXPECT_GT(out.policy[a], 0.0f) << "action " << a;
    } else {
      EXPECT_EQ(out.policy[a], 0.0f) << "action " << a;
    }
    sum += out.policy[a];
  }
  EXPECT_NEAR(sum, 1.0, 1e-5);
  EXPECT_GE(out.value, -1.0f);
  EXPECT_LE(out.value, 1.0f);
}

TEST(FakeEvaluators, UniformIsUniformOverLegalActionsWithValueZero) {
  UniformEvaluator uniform;
  for (const auto& p : RandomPositions(rules::RuleSet::kStandard, 9, 20, 1)) {
    EvalOutput out;
    uniform.Evaluate({&p, 1}, {&out, 1});
    ExpectDistributionOverLegal(p, out);
    EXPECT_EQ(out.value, 0.0f);
    const float expected = 1.0f / static_cast<float>(p.LegalActions().Count());
    for (float x : out.policy) {
      if (x != 0.0f) {
        EXPECT_FLOAT_EQ(x, expected);
      }
    }
  }
}

TEST(FakeEvaluators, HashEvaluatorIsAFunctionOfThePosition) {
  HashEvaluator a(7, 0.5f), b(7, 0.5f), other_seed(8, 0.5f);
  const auto positions = RandomPositions(rules::RuleSet::kStandard, 7, 30, 2);
  int value_differs = 0;
  for (const auto& p : positions) {
    const EvalOutput x = a.EvaluateOne(p);
    ExpectDistributionOverLegal(p, x);
    EXPECT_LE(std::abs(x.value), 0.5f);
    const EvalOutput y = b.EvaluateOne(p);
    EXPECT_EQ(x.policy, y.policy);
    EXPECT_EQ(x.value, y.value);
    value_differs += other_seed.EvaluateOne(p).value != x.value;
  }
  EXPECT_GT(value_differs, 25);
  // Different positions get different values (it is not a constant).
  EXPECT_NE(a.EvaluateOne(positions[0]).value, a.EvaluateOne(positions[1]).value);
}

TEST(FakeEvaluators, FunctionEvaluatorCallsTheFunction) {
  FunctionEvaluator f([](const rules::Position& p, EvalOutput& out) {
    FillUniformPolicy(p, out);
    out.value = p.ToMove() == rules::Color::kBlack ? 0.25f : -0.25f;
  });
  const auto positions = RandomPositions(rules::RuleSet::kClassic, 7, 10, 3);
  std::vector<EvalOutput> out(positions.size());
  f.Evaluate(positions, out);
  for (size_t i = 0; i < positions.size(); ++i) {
    ExpectDistributionOverLegal(positions[i], out[i]);
    EXPECT_EQ(out[i].value, positions[i].ToMove() == rules::Color::kBlack ? 0.25f : -0.25f);
  }
}

TEST(FakeEvaluators, TerminalValueIsForThePlayerToMove) {
  // Black to move with a winning turn: after it the game is over, White (the loser) is to
  // move, so the value for the player to move is -1.
  const rules::Position p = testing::WinningClaimPosition();
  int finished = 0;
  rules::ForEachTurn(p, [&](const rules::Turn& t) {
    rules::Position q = p;
    rules::ApplyTurn(q, t);
    if (!q.IsTerminal()) return;
    ++finished;
    EXPECT_EQ(q.Winner(), rules::Color::kBlack);
    EXPECT_EQ(q.ToMove(), rules::Color::kWhite);
    EXPECT_EQ(TerminalValue(q), -1.0f);
    util::Rng rng(1);
    EXPECT_EQ(RandomPlayoutValue(q, rng), -1.0f);
  });
  EXPECT_GT(finished, 0);
}

TEST(FakeEvaluators, RandomPlayoutsAreWholeGameResultsAndDeterministic) {
  // Every playout is a whole game: +1 or -1, and the same seed replays the same games.
  const rules::Position p = testing::WinningClaimPosition();
  util::Rng rng(5), same(5);
  for (int i = 0; i < 50; ++i) {
    const float v = RandomPlayoutValue(p, rng);
    EXPECT_TRUE(v == 1.0f || v == -1.0f);
    EXPECT_EQ(v, RandomPlayoutValue(p, same));
  }
}

TEST(FakeEvaluators, RandomPlayoutsFinishATurnInProgress) {
  // Mid-turn positions (destination, shot, setup) all play out to a result.
  util::Rng rng(9);
  for (const auto& start : RandomPositions(rules::RuleSet::kStandard, 10, 20, 4)) {
    rules::Position p = start;
    const rules::ActionSet legal = p.LegalActions();
    p.Apply(legal.squares.Any() ? legal.squares.Lsb() : p.PassAction());
    if (p.IsTerminal()) continue;
    const float v = RandomPlayoutValue(p, rng);
    EXPECT_TRUE(v == 1.0f || v == -1.0f);
  }
}

TEST(FakeEvaluators, RolloutEvaluatorCountsPlayoutsAndGivesLegalPriors) {
  RolloutEvaluator rollout(3);
  const auto positions = RandomPositions(rules::RuleSet::kStandard, 7, 8, 6);
  std::vector<EvalOutput> out(positions.size());
  rollout.Evaluate(positions, out);
  EXPECT_EQ(rollout.Playouts(), positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    ExpectDistributionOverLegal(positions[i], out[i]);
    EXPECT_TRUE(out[i].value == 1.0f || out[i].value == -1.0f);
  }
}

}  // namespace
}  // namespace veletas::search
