// The node budget of a search tree (SearchConfig::max_nodes): a search with a huge budget
// of simulations stops where the tree is full, says so, and still gives a usable result.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "search/node.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::RandomPositions;

TEST(NodeBudget, AHugeSearchStopsAtTheBudgetWithAUsableResult) {
  HashEvaluator eval(5);
  const rules::Position pos = RandomPositions(rules::RuleSet::kStandard, 7, 1, 21)[0];
  for (Algorithm alg : {Algorithm::kPuct, Algorithm::kGumbel, Algorithm::kUct}) {
    SearchConfig config;
    config.algorithm = alg;
    config.max_nodes = 3000;
    Mcts mcts(config, 1);
    mcts.SetPosition(pos);
    const SearchResult r = mcts.Run(eval, 100'000'000);
    EXPECT_TRUE(r.node_limit) << static_cast<int>(alg);
    EXPECT_LE(mcts.Stats().nodes, 3000u);
    EXPECT_GE(mcts.Stats().nodes, 2900u);  // it stopped because the tree was full
    EXPECT_LT(r.simulations, 100'000'000);
    EXPECT_TRUE(pos.LegalActions().Contains(r.action, pos.Size()));
    // The next search from the same (full) tree stops at once, with the same answer kind.
    const SearchResult again = mcts.Run(eval, 1000);
    EXPECT_TRUE(again.node_limit);
    EXPECT_EQ(again.simulations, 0);
    EXPECT_TRUE(pos.LegalActions().Contains(again.action, pos.Size()));
  }
}

TEST(NodeBudget, SearchesWithinTheBudgetAreUnchanged) {
  HashEvaluator eval(5);
  const rules::Position pos = RandomPositions(rules::RuleSet::kStandard, 9, 1, 22)[0];
  SearchConfig bounded;
  bounded.max_nodes = 1'000'000;
  Mcts a(SearchConfig{}, 3), b(bounded, 3);
  a.SetPosition(pos);
  b.SetPosition(pos);
  const SearchResult ra = a.Run(eval, 400), rb = b.Run(eval, 400);
  EXPECT_FALSE(ra.node_limit);
  EXPECT_FALSE(rb.node_limit);
  EXPECT_EQ(ra.simulations, 400);
  EXPECT_EQ(ra.action, rb.action);
  EXPECT_EQ(ra.policy, rb.policy);
}

TEST(NodeBudget, TheBudgetFollowsMemory) {
  constexpr int64_t kGiB = int64_t{1} << 30;
  // A quarter of the memory at the largest node size: twice the memory, twice the nodes.
  for (int64_t memory : {4 * kGiB, 16 * kGiB, 64 * kGiB, 256 * kGiB}) {
    const int64_t nodes = MaxNodesForMemory(memory);
    EXPECT_LE(nodes * MaxNodeBytes(), memory / 4) << memory;
    EXPECT_GT((nodes + 1) * MaxNodeBytes(), memory / 4) << memory;
  }
  EXPECT_NEAR(static_cast<double>(MaxNodesForMemory(128 * kGiB)),
              2.0 * static_cast<double>(MaxNodesForMemory(64 * kGiB)), 1.0);
  // Little memory still gets the floor of 1,000,000 nodes.
  EXPECT_EQ(MaxNodesForMemory(kGiB / 16), 1'000'000);
  EXPECT_EQ(MaxNodesForMemory(0), 1'000'000);
  // The size counted covers the largest node: itself and an edge per action of 10x10.
  EXPECT_GE(MaxNodeBytes(), static_cast<int64_t>(sizeof(Node) + rules::kMaxActions * sizeof(Edge)));
}

TEST(NodeBudget, TheAutomaticBudgetComesFromTheMachinesMemory) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  ASSERT_GT(pages, 0);
  ASSERT_GT(page, 0);
  EXPECT_EQ(DefaultMaxNodes(), MaxNodesForMemory(int64_t{pages} * page));
  SearchConfig config;  // max_nodes 0: automatic
  EXPECT_EQ(config.max_nodes, 0);
  // The most a tree may be given: all of the memory at the largest node size.
  EXPECT_EQ(MaxNodesLimit(), std::max<int64_t>(1'000'000, int64_t{pages} * page / MaxNodeBytes()));
  EXPECT_GE(MaxNodesLimit(), DefaultMaxNodes());
  config.max_nodes = MaxNodesLimit();
  EXPECT_TRUE(config.Validate().ok());
  config.max_nodes = MaxNodesLimit() + 1;
  EXPECT_NE(config.Validate().error().find("max_nodes: " + std::to_string(MaxNodesLimit() + 1) +
                                           " is more than this machine's memory holds"),
            std::string::npos)
      << config.Validate().error();
}

}  // namespace
}  // namespace veletas::search
