// The Gumbel AlphaZero root: sequential halving's schedule, selection with known Q values,
// the improved policy as the target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::RandomPositions;

// A 7x7 position where Black shoots without moving: the root decision is the shot square.
// No shot can end the game (no stones yet, no claims).
rules::Position ShotRoot() {
  rules::Position p = testing::FromRows("......./.S...../......./...S.../......./.....S./.......",
                                        rules::Color::kBlack);
  p.Apply(p.PassAction());
  EXPECT_EQ(p.Pending(), rules::Decision::kShot);
  return p;
}

// Values fixed by where Black's root shot landed: table[shot] for Black, the negation for
// White, at the positions below the root; so each root action's true Q is its table
// entry. (Only a second Black shot, six sub-decisions down and out of reach of these small
// searches, would make the square ambiguous.) The root's priors are `priors`.
FunctionEvaluator KnownValues(const rules::Position& root, std::map<int, float> table,
                              std::map<int, float> priors) {
  const rules::Bitboard before = root.Stones(rules::Color::kBlack);
  const uint64_t root_hash = root.Hash();
  return FunctionEvaluator([=](const rules::Position& p, EvalOutput& out) {
    FillUniformPolicy(p, out);
    if (p.Hash() == root_hash) {
      double sum = 0;
      for (const auto& [sq, w] : priors) sum += w;
      for (const auto& [sq, w] : priors) out.policy[sq] = static_cast<float>(w / sum);
    }
    const rules::Bitboard shots = p.Stones(rules::Color::kBlack) & ~before;
    const float black = shots.Any() && table.count(shots.Lsb()) ? table.at(shots.Lsb()) : 0.0f;
    out.value = p.ToMove() == rules::Color::kBlack ? black : -black;
  });
}

TEST(Gumbel, SelectsTheBestActionWhenTheQValuesAreKnown) {
  const rules::Position root = ShotRoot();
  const rules::ActionSet legal = root.LegalActions();
  ASSERT_GT(legal.Count(), 8);
  for (int best_index : {0, 5, legal.Count() - 1}) {
    // One clearly best destination, the others spread over [-0.5, 0.3]; the prior
    // favours the others (the best gets a quarter of the average prior).
    std::map<int, float> table, priors;
    int i = 0, best = -1;
    for (int sq : legal.squares) {
      if (i == best_index) best = sq;
      table[sq] = i == best_index ? 0.9f : -0.5f + 0.8f * static_cast<float>(i % 7) / 6.0f;
      priors[sq] = i == best_index ? 0.25f : 1.0f + 0.1f * static_cast<float>(i % 3);
      ++i;
    }
    auto eval = KnownValues(root, table, priors);
    SearchConfig config;
    config.algorithm = Algorithm::kGumbel;
    config.root_noise = false;
    config.gumbel_considered = rules::kMaxActions;  // every action enters the halving
    Mcts mcts(config, 1);
    mcts.SetPosition(root);
    const SearchResult r = mcts.Run(eval, 64);
    EXPECT_EQ(r.action, best) << "best index " << best_index;
    // The improved policy puts its largest mass on the best action, though its prior is
    // the smallest.
    const auto top = std::max_element(r.policy.begin(), r.policy.end()) - r.policy.begin();
    EXPECT_EQ(top, best);
    for (const ChildInfo& c : r.children) {
      if (c.visits > 0) {
        EXPECT_NEAR(c.q, table[c.action], 1e-4);
      }
    }
  }
}

TEST(Gumbel, WithNoiseTheBestActionWinsWhenSampled) {
  // Uniform priors and m = 8 of k legal actions: Gumbel top-k samples the best action in
  // about 8/k of the searches and, Q being known, the halving then picks it. So it is
  // chosen in roughly that share of the searches: not never (it must win when sampled)
  // and not always (it must not be found when it was not sampled).
  const rules::Position root = ShotRoot();
  const rules::ActionSet legal = root.LegalActions();
  std::map<int, float> table, priors;
  int i = 0, best = -1;
  for (int sq : legal.squares) {
    if (i == 3) best = sq;
    table[sq] = i == 3 ? 0.9f : -0.5f + 0.1f * static_cast<float>(i % 5);
    priors[sq] = 1.0f;
    ++i;
  }
  auto eval = KnownValues(root, table, priors);
  SearchConfig config;
  config.algorithm = Algorithm::kGumbel;
  config.root_noise = true;
  config.gumbel_considered = 8;
  constexpr int kSearches = 100;
  int chosen_best = 0;
  for (int seed = 0; seed < kSearches; ++seed) {
    Mcts mcts(config, seed);
    mcts.SetPosition(root);
    chosen_best += mcts.Run(eval, 32).action == best;
  }
  const double expected = kSearches * 8.0 / legal.Count();
  EXPECT_GT(chosen_best, expected * 0.5);
  EXPECT_LT(chosen_best, std::min(expected * 1.6, kSearches * 0.9));
}

TEST(Gumbel, SequentialHalvingSchedule) {
  // m = 4 actions and 16 simulations: 2 halving rounds; first every one of the 4 gets
  // floor(16 / (2 * 4)) = 2 visits, then the best 2 share the other 8 (4 more each).
  HashEvaluator eval(3);
  for (int leaves : {1, 8}) {
    for (const auto& p : RandomPositions(rules::RuleSet::kStandard, 10, 5, 20)) {
      if (p.LegalActions().Count() < 4) continue;
      SearchConfig config;
      config.algorithm = Algorithm::kGumbel;
      config.gumbel_considered = 4;
      config.leaves_per_batch = leaves;
      config.solver = false;
      Mcts mcts(config, 9);
      mcts.SetPosition(p);
      const SearchResult r = mcts.Run(eval, 16);
      std::vector<uint32_t> visits;
      for (const ChildInfo& c : r.children) {
        if (c.visits > 0) visits.push_back(c.visits);
      }
      EXPECT_EQ(visits, (std::vector<uint32_t>{6, 6, 2, 2})) << "leaves " << leaves;
      // The chosen action is one of the two that survived the halving.
      EXPECT_TRUE(r.action == r.children[0].action || r.action == r.children[1].action);
    }
  }
}

TEST(Gumbel, TargetIsADistributionOverLegalActions) {
  HashEvaluator eval(4);
  SearchConfig config;
  config.algorithm = Algorithm::kGumbel;
  for (const auto& p : RandomPositions(rules::RuleSet::kClassic, 9, 8, 21)) {
    Mcts mcts(config, 2);
    mcts.SetPosition(p);
    const SearchResult r = mcts.Run(eval, 24);
    const rules::ActionSet legal = p.LegalActions();
    double sum = 0;
    for (int a = 0; a < rules::kMaxActions; ++a) {
      const bool is_legal = a <= p.PassAction() && legal.Contains(a, p.Size());
      if (is_legal) {
        EXPECT_GT(r.policy[a], 0.0f);
      } else {
        EXPECT_EQ(r.policy[a], 0.0f);
      }
      sum += r.policy[a];
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_EQ(r.root_visits, 24u);
  }
}

}  // namespace
}  // namespace veletas::search
