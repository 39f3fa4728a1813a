// Search in batches: several leaves in flight in one search, many searches evaluated
// together by the batched driver, and the tree's memory report.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "search/search_driver.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::RandomPositions;

TEST(Mcts, KeepsSeveralDistinctLeavesInFlight) {
  HashEvaluator eval(8);
  // The first setup placement on 10x10: dozens of legal squares.
  const rules::Position p = rules::Position::Initial(rules::RuleSet::kStandard, 10);
  SearchConfig config;
  config.leaves_per_batch = 16;
  Mcts mcts(config, 6);
  mcts.SetPosition(p);
  mcts.StartSearch(64);
  std::vector<rules::Position> leaves;
  ASSERT_EQ(mcts.CollectLeaves(16, leaves), 1);  // the root's own evaluation first
  std::vector<EvalOutput> out(1, eval.EvaluateOne(leaves[0]));
  mcts.ProvideEvaluations(out);
  leaves.clear();
  const int k = mcts.CollectLeaves(16, leaves);
  EXPECT_EQ(k, 16);
  EXPECT_EQ(mcts.LeavesInFlight(), k);
  EXPECT_GE(mcts.Root()->in_flight, k);  // selections that collided count until provided
  std::vector<uint64_t> hashes;
  for (const auto& q : leaves) hashes.push_back(q.Hash());
  std::sort(hashes.begin(), hashes.end());
  EXPECT_EQ(std::unique(hashes.begin(), hashes.end()), hashes.end()) << "duplicate leaves";
  out.clear();
  for (const auto& q : leaves) out.push_back(eval.EvaluateOne(q));
  mcts.ProvideEvaluations(out);
  EXPECT_EQ(mcts.Root()->in_flight, 0);
  EXPECT_EQ(mcts.Root()->n, 1u + k);
}

// Counts the evaluator's batch sizes.
class CountingEvaluator : public Evaluator {
 public:
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override {
    largest = std::max(largest, positions.size());
    ++calls;
    inner.Evaluate(positions, out);
  }
  HashEvaluator inner{9};
  size_t largest = 0;
  int calls = 0;
};

TEST(Mcts, BatchedDriverMatchesSeparateSearches) {
  // Many searches evaluated together give exactly the results of each search run alone,
  // with far fewer and larger evaluator calls.
  const auto positions = RandomPositions(rules::RuleSet::kStandard, 9, 24, 17);
  for (Algorithm alg : {Algorithm::kPuct, Algorithm::kGumbel}) {
    SearchConfig config;
    config.algorithm = alg;
    config.leaves_per_batch = 4;
    std::vector<std::unique_ptr<Mcts>> searches;
    std::vector<Mcts*> ptrs;
    for (size_t i = 0; i < positions.size(); ++i) {
      searches.push_back(std::make_unique<Mcts>(config, i));
      searches.back()->SetPosition(positions[i]);
      searches.back()->StartSearch(64);
      ptrs.push_back(searches.back().get());
    }
    CountingEvaluator counting;
    RunSearchesBatched(ptrs, counting);
    CountingEvaluator alone;
    for (size_t i = 0; i < positions.size(); ++i) {
      Mcts single(config, i);
      single.SetPosition(positions[i]);
      const SearchResult expected = single.Run(alone, 64);
      const SearchResult got = searches[i]->Result();
      EXPECT_EQ(got.action, expected.action);
      EXPECT_EQ(got.policy, expected.policy);
      EXPECT_EQ(got.value, expected.value);
    }
    EXPECT_GT(counting.largest, 4u * positions.size() / 2);
    EXPECT_LT(counting.calls * 10, alone.calls);
  }
}

TEST(Mcts, ReportsMemoryPerNode) {
  UniformEvaluator eval;
  Mcts mcts(SearchConfig{}, 1);
  mcts.SetPosition(RandomPositions(rules::RuleSet::kStandard, 10, 1, 18)[0]);
  mcts.Run(eval, 300);
  const TreeStats s = mcts.Stats();
  EXPECT_EQ(s.bytes, s.nodes * sizeof(Node) + s.edges * sizeof(Edge));
  EXPECT_GT(s.nodes, 100u);
  // Children are allocated lazily: far fewer nodes than edges.
  EXPECT_LT(s.nodes, s.edges);
}

}  // namespace
}  // namespace veletas::search
