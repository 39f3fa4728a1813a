// `veletas bench-search`: speed of the search layer without a network. Simulations per
// second of PUCT and Gumbel MCTS with a zero-cost evaluator (uniform priors, value 0: the
// tree's own overhead), the memory per tree node, and UCT random-playout speed, on 7x7 and
// 10x10 positions taken from seeded random games.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
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

struct BenchSearchOptions {
  long long simulations = 800, positions = 20, leaves = 8, playouts = 2000;
  std::string rules = "standard";
};

int RunBenchSearch(const BenchSearchOptions& o) {
  const rules::RuleSet rs = rules::ParseRuleSet(o.rules).value_or(rules::RuleSet::kStandard);

  std::printf(
      "MCTS with a zero-cost evaluator (uniform priors, value 0), %lld simulations per "
      "search, %lld leaves per batch, %lld positions per row\n",
      o.simulations, o.leaves, o.positions);
  std::printf("%-8s %-8s %12s %12s %14s %12s\n", "size", "mode", "sims/s", "nodes/search",
              "bytes/node", "MiB/search");
  for (int size : {7, 10}) {
    for (search::Algorithm alg : {search::Algorithm::kPuct, search::Algorithm::kGumbel}) {
      search::SearchConfig config;
      config.algorithm = alg;
      config.leaves_per_batch = static_cast<int>(o.leaves);
      config.root_noise = true;
      const search::TreeBench b = search::BenchTree(
          rs, size, config, static_cast<int>(o.simulations), static_cast<int>(o.positions));
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
      o.positions * 16, o.simulations / 8);
  std::printf("%-8s %-8s %12s %12s %12s\n", "size", "mode", "sims/s", "batches", "mean batch");
  for (int size : {7, 10}) {
    const auto positions =
        rules::RandomTurnStarts(rs, size, static_cast<int>(o.positions) * 16, 31 + size);
    for (search::Algorithm alg : {search::Algorithm::kPuct, search::Algorithm::kGumbel}) {
      search::SearchConfig config;
      config.algorithm = alg;
      config.leaves_per_batch = static_cast<int>(o.leaves);
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
        searches.back()->StartSearch(static_cast<int>(o.simulations / 8));
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
              o.playouts);
  std::printf("%-8s %8s %14s %12s\n", "size", "threads", "playouts/s", "turns/s");
  for (int size : {7, 10}) {
    const auto positions =
        rules::RandomTurnStarts(rs, size, static_cast<int>(o.positions), 23 + size);
    for (int threads : {1, 2}) {
      search::UctConfig config;
      config.playouts = static_cast<int>(o.playouts);
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

CommandRun SetupBenchSearch(CLI::App& cmd) {
  auto o = std::make_shared<BenchSearchOptions>();
  cmd.add_option("--simulations", o->simulations, "MCTS simulations per search")
      ->check(CLI::Range(1LL, 1'000'000LL));
  cmd.add_option("--positions", o->positions, "positions searched per row")
      ->check(CLI::Range(1LL, 10'000LL));
  cmd.add_option("--leaves", o->leaves, "leaves collected per evaluator batch")
      ->check(CLI::Range(1LL, 1024LL));
  cmd.add_option("--playouts", o->playouts, "UCT playouts per search")
      ->check(CLI::Range(1LL, 10'000'000LL));
  cmd.add_option("--rules", o->rules, "rule edition")
      ->check(CLI::IsMember({"standard", "classic"}));
  return [o] { return RunBenchSearch(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench_search, "bench-search",
                    "search speed: MCTS simulations/s with a zero-cost evaluator, bytes per node, "
                    "UCT playouts/s",
                    SetupBenchSearch);

}  // namespace veletas::app
