// `veletas bench-search`: speed of the search layer without a network. Simulations per
// second of PUCT and Gumbel MCTS with a zero-cost evaluator (uniform priors, value 0: the
// tree's own overhead), the memory per tree node, and UCT random-playout speed, on 7x7 and
// 10x10 positions taken from seeded random games (search/search_bench.h).
#include <fmt/format.h>

#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "rules/notation.h"
#include "search/search_bench.h"

namespace veletas::app {
namespace {

struct BenchSearchOptions {
  long long simulations = 800, positions = 20, leaves = 8, playouts = 2000;
  std::string rules = "standard";
};

constexpr search::Algorithm kAlgorithms[] = {search::Algorithm::kPuct, search::Algorithm::kGumbel};

const char* AlgorithmName(search::Algorithm a) {
  return a == search::Algorithm::kPuct ? "puct" : "gumbel";
}

std::string BoardName(int size) { return fmt::format("{}x{}", size, size); }

search::SearchConfig BenchConfig(search::Algorithm alg, const BenchSearchOptions& o) {
  search::SearchConfig config;
  config.algorithm = alg;
  config.leaves_per_batch = static_cast<int>(o.leaves);
  return config;
}

void TreeRows(rules::RuleSet rs, const BenchSearchOptions& o) {
  fmt::print(
      "MCTS with a zero-cost evaluator (uniform priors, value 0), {} simulations per search, {} "
      "leaves per batch, {} positions per row\n",
      o.simulations, o.leaves, o.positions);
  fmt::print("{:<8} {:<8} {:>12} {:>12} {:>14} {:>12}\n", "size", "mode", "sims/s", "nodes/search",
             "bytes/node", "MiB/search");
  for (int size : {7, 10}) {
    for (search::Algorithm alg : kAlgorithms) {
      search::SearchConfig config = BenchConfig(alg, o);
      config.root_noise = true;
      const search::TreeBench b = search::BenchTree(
          rs, size, config, static_cast<int>(o.simulations), static_cast<int>(o.positions));
      fmt::print("{:<8} {:<8} {:12.0f} {:12.0f} {:14.1f} {:12.2f}\n", BoardName(size),
                 AlgorithmName(alg), b.simulations_per_second, b.nodes_per_search, b.bytes_per_node,
                 b.mib_per_search);
    }
  }
}

// The self-play pattern: many searches whose leaves are evaluated together, through the
// batching front end (no cache, so every leaf reaches the backend).
void BatchedRows(rules::RuleSet rs, const BenchSearchOptions& o) {
  fmt::print(
      "\nBatched: {} searches of {} simulations each, driven together (RunSearchesBatched) "
      "through a BatchingEvaluator over the zero-cost evaluator\n",
      o.positions * 16, o.simulations / 8);
  fmt::print("{:<8} {:<8} {:>12} {:>12} {:>12}\n", "size", "mode", "sims/s", "batches",
             "mean batch");
  for (int size : {7, 10}) {
    for (search::Algorithm alg : kAlgorithms) {
      const search::BatchedBench b =
          search::BenchBatched(rs, size, BenchConfig(alg, o), static_cast<int>(o.simulations / 8),
                               static_cast<int>(o.positions) * 16);
      fmt::print("{:<8} {:<8} {:12.0f} {:12} {:12.1f}\n", BoardName(size), AlgorithmName(alg),
                 b.simulations_per_second, b.batches, b.mean_batch);
    }
  }
}

void UctRows(rules::RuleSet rs, const BenchSearchOptions& o) {
  fmt::print("\nUCT with random playouts, {} playouts per turn, one turn per position\n",
             o.playouts);
  fmt::print("{:<8} {:>8} {:>14} {:>12}\n", "size", "threads", "playouts/s", "turns/s");
  for (int size : {7, 10}) {
    for (int threads : {1, 2}) {
      const search::UctBench b = search::BenchUct(rs, size, static_cast<int>(o.playouts), threads,
                                                  static_cast<int>(o.positions));
      fmt::print("{:<8} {:8} {:14.0f} {:12.2f}\n", BoardName(size), threads, b.playouts_per_second,
                 b.turns_per_second);
    }
  }
}

int RunBenchSearch(const BenchSearchOptions& o) {
  const rules::RuleSet rs = rules::ParseRuleSet(o.rules).value_or(rules::RuleSet::kStandard);
  TreeRows(rs, o);
  BatchedRows(rs, o);
  UctRows(rs, o);
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
