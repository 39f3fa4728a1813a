// The benchmarks of search_bench.h that run threads (the batching front end, UCT workers):
// a file of their own so that the browser page, which links BenchTree, does not link them.
#include <chrono>
#include <memory>
#include <vector>

#include "rules/turns.h"
#include "search/batching_evaluator.h"
#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "search/search_bench.h"
#include "search/search_driver.h"
#include "search/uct_player.h"
#include "util/clock.h"

namespace veletas::search {

BatchedBench BenchBatched(rules::RuleSet rules, int size, const SearchConfig& config,
                          int simulations, int searches) {
  const auto positions = rules::RandomTurnStarts(rules, size, searches, 31 + size);
  UniformEvaluator uniform;
  BatchingConfig bconfig;
  bconfig.max_batch = 4096;
  bconfig.max_wait_us = 0;
  bconfig.cache_size = 0;
  BatchingEvaluator batching(uniform, bconfig);
  std::vector<std::unique_ptr<Mcts>> trees;
  std::vector<Mcts*> ptrs;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < positions.size(); ++i) {
    trees.push_back(std::make_unique<Mcts>(config, i));
    trees.back()->SetPosition(positions[i]);
    trees.back()->StartSearch(simulations);
    ptrs.push_back(trees.back().get());
  }
  RunSearchesBatched(ptrs, batching);
  uint64_t total_sims = 0;
  for (auto& m : trees) total_sims += static_cast<uint64_t>(m->Result().simulations);
  const double secs = util::SecondsSince(start);
  const auto stats = batching.GetStats();
  return {static_cast<double>(total_sims) / secs, stats.batches, stats.MeanBatchSize()};
}

UctBench BenchUct(rules::RuleSet rules, int size, int playouts, int threads, int positions) {
  const auto starts = rules::RandomTurnStarts(rules, size, positions, 23 + size);
  UctConfig config;
  config.playouts = playouts;
  config.threads = threads;
  UctPlayer player(config, 5);
  const auto start = std::chrono::steady_clock::now();
  for (const rules::Position& p : starts) {
    player.NewGame();
    player.ChooseTurn(p);
  }
  const double secs = util::SecondsSince(start);
  return {static_cast<double>(player.Playouts()) / secs, static_cast<double>(starts.size()) / secs};
}

}  // namespace veletas::search
