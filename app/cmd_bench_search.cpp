// `veletas bench-search`: speed of the search layer without a network. Simulations per
// second of PUCT and Gumbel MCTS with a zero-cost evaluator (uniform priors, value 0: the
// tree's own overhead), the memory per tree node, and UCT random-playout speed, on 7x7 and
// 10x10 positions taken from seeded random games.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/args.h"
#include "app/command.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "search/batching_evaluator.h"
#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "search/search_bench.h"
#include "search/search_driver.h"
#include "search/uct_player.h"

namespace veletas::app {
namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int RunBenchSearch(const std::vector<std::string>& argv) {
  auto args = ParseArgs({{"simulations", true},
                         {"positions", true},
                         {"leaves", true},
                         {"playouts", true},
                         {"rules", true}},
                        argv, 0);
  if (!args) return UsageError("bench-search", args.error());
  const auto sims = args.value().Int("simulations", 800, 1, 1'000'000);
  const auto count = args.value().Int("positions", 20, 1, 10'000);
  const auto leaves = args.value().Int("leaves", 8, 1, 1024);
  const auto playouts = args.value().Int("playouts", 2000, 1, 10'000'000);
  for (const auto* r : {&sims, &count, &leaves, &playouts}) {
    if (!*r) return UsageError("bench-search", r->error());
  }
  rules::RuleSet rs = rules::RuleSet::kStandard;
  if (const auto r = args.value().Value("rules")) {
    const auto parsed = rules::ParseRuleSet(*r);
    if (!parsed) return UsageError("bench-search", "--rules: expected standard or classic");
    rs = *parsed;
  }

  std::printf(
      "MCTS with a zero-cost evaluator (uniform priors, value 0), %lld simulations per "
      "search, %lld leaves per batch, %lld positions per row\n",
      sims.value(), leaves.value(), count.value());
  std::printf("%-8s %-8s %12s %12s %14s %12s\n", "size", "mode", "sims/s", "nodes/search",
              "bytes/node", "MiB/search");
  for (int size : {7, 10}) {
    for (search::Algorithm alg : {search::Algorithm::kPuct, search::Algorithm::kGumbel}) {
      search::SearchConfig config;
      config.algorithm = alg;
      config.leaves_per_batch = static_cast<int>(leaves.value());
      config.root_noise = true;
      const search::TreeBench b = search::BenchTree(
          rs, size, config, static_cast<int>(sims.value()), static_cast<int>(count.value()));
      const std::string name = std::to_string(size) + "x" + std::to_string(size);
      std::printf("%-8s %-8s %12.0f %12.0f %14.1f %12.2f\n", name.c_str(),
                  alg == search::Algorithm::kPuct ? "puct" : "gumbel", b.simulations_per_second,
                  b.nodes_per_search, b.bytes_per_node, b.mib_per_search);
    }
  }

  // The self-play pattern: many searches whose leaves are evaluated together, through the
  // batching front end (no cache, so every leaf reaches the backend).
  std::printf(
      "\nBatched: %lld searches of %lld simulations each, driven together "
      "(RunSearchesBatched) through a BatchingEvaluator over the zero-cost evaluator\n",
      count.value() * 16, sims.value() / 8);
  std::printf("%-8s %-8s %12s %12s %12s\n", "size", "mode", "sims/s", "batches", "mean batch");
  for (int size : {7, 10}) {
    const auto positions =
        rules::RandomTurnStarts(rs, size, static_cast<int>(count.value()) * 16, 31 + size);
    for (search::Algorithm alg : {search::Algorithm::kPuct, search::Algorithm::kGumbel}) {
      search::SearchConfig config;
      config.algorithm = alg;
      config.leaves_per_batch = static_cast<int>(leaves.value());
      search::UniformEvaluator uniform;
      search::BatchingConfig bconfig;
      bconfig.max_batch = 4096;
      bconfig.max_wait_us = 0;
      bconfig.cache_size = 0;
      search::BatchingEvaluator batching(uniform, bconfig);
      std::vector<std::unique_ptr<search::Mcts>> searches;
      std::vector<search::Mcts*> ptrs;
      const auto start = std::chrono::steady_clock::now();
      for (size_t i = 0; i < positions.size(); ++i) {
        searches.push_back(std::make_unique<search::Mcts>(config, i));
        searches.back()->SetPosition(positions[i]);
        searches.back()->StartSearch(static_cast<int>(sims.value() / 8));
        ptrs.push_back(searches.back().get());
      }
      search::RunSearchesBatched(ptrs, batching);
      uint64_t total_sims = 0;
      for (auto& m : searches) total_sims += static_cast<uint64_t>(m->Result().simulations);
      const double secs = Seconds(start);
      const auto stats = batching.GetStats();
      const std::string name = std::to_string(size) + "x" + std::to_string(size);
      std::printf("%-8s %-8s %12.0f %12llu %12.1f\n", name.c_str(),
                  alg == search::Algorithm::kPuct ? "puct" : "gumbel", total_sims / secs,
                  static_cast<unsigned long long>(stats.batches), stats.MeanBatchSize());
    }
  }

  std::printf("\nUCT with random playouts, %lld playouts per turn, one turn per position\n",
              playouts.value());
  std::printf("%-8s %8s %14s %12s\n", "size", "threads", "playouts/s", "turns/s");
  for (int size : {7, 10}) {
    const auto positions =
        rules::RandomTurnStarts(rs, size, static_cast<int>(count.value()), 23 + size);
    for (int threads : {1, 2}) {
      search::UctConfig config;
      config.playouts = static_cast<int>(playouts.value());
      config.threads = threads;
      search::UctPlayer player(config, 5);
      const auto start = std::chrono::steady_clock::now();
      for (const rules::Position& p : positions) {
        player.NewGame();
        player.ChooseTurn(p);
      }
      const double secs = Seconds(start);
      const std::string name = std::to_string(size) + "x" + std::to_string(size);
      std::printf("%-8s %8d %14.0f %12.2f\n", name.c_str(), threads, player.Playouts() / secs,
                  positions.size() / secs);
    }
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(bench_search, "bench-search",
                "[--simulations N] [--positions N] [--leaves N] [--playouts N] [--rules R]",
                "search speed: MCTS simulations/s with a zero-cost evaluator, bytes per node, "
                "UCT playouts/s",
                RunBenchSearch);

}  // namespace veletas::app
