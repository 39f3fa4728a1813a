#include "search/search_bench_report.h"

#include <cstdio>
#include <string>

#include "search/search_bench.h"

namespace veletas::search {
namespace {

constexpr Algorithm kAlgorithms[] = {Algorithm::kPuct, Algorithm::kGumbel};

std::string BoardName(int size) { return std::to_string(size) + "x" + std::to_string(size); }

SearchConfig BenchConfig(Algorithm alg, const SearchBenchOptions& o) {
  SearchConfig config;
  config.algorithm = alg;
  config.leaves_per_batch = o.leaves;
  return config;
}

void TreeRows(const SearchBenchOptions& o) {
  std::printf(
      "MCTS with a zero-cost evaluator (uniform priors, value 0), %d simulations per search, %d "
      "leaves per batch, %d positions per row\n",
      o.simulations, o.leaves, o.positions);
  std::printf("%-8s %-8s %12s %12s %14s %12s\n", "size", "mode", "sims/s", "nodes/search",
              "bytes/node", "MiB/search");
  for (int size : {7, 10}) {
    for (Algorithm alg : kAlgorithms) {
      SearchConfig config = BenchConfig(alg, o);
      config.root_noise = true;
      const TreeBench b = BenchTree(o.rules, size, config, o.simulations, o.positions);
      std::printf("%-8s %-8s %12.0f %12.0f %14.1f %12.2f\n", BoardName(size).c_str(),
                  AlgorithmName(alg), b.simulations_per_second, b.nodes_per_search,
                  b.bytes_per_node, b.mib_per_search);
      std::fflush(stdout);
    }
  }
}

// The self-play pattern: many searches whose leaves are evaluated together, through the
// batching front end (no cache, so every leaf reaches the backend).
void BatchedRows(const SearchBenchOptions& o) {
  std::printf(
      "\nBatched: %d searches of %d simulations each, driven together (RunSearchesBatched) "
      "through a BatchingEvaluator over the zero-cost evaluator\n",
      o.positions * 16, o.simulations / 8);
  std::printf("%-8s %-8s %12s %12s %12s\n", "size", "mode", "sims/s", "batches", "mean batch");
  for (int size : {7, 10}) {
    for (Algorithm alg : kAlgorithms) {
      const BatchedBench b =
          BenchBatched(o.rules, size, BenchConfig(alg, o), o.simulations / 8, o.positions * 16);
      std::printf("%-8s %-8s %12.0f %12llu %12.1f\n", BoardName(size).c_str(), AlgorithmName(alg),
                  b.simulations_per_second, static_cast<unsigned long long>(b.batches),
                  b.mean_batch);
      std::fflush(stdout);
    }
  }
}

void UctRows(const SearchBenchOptions& o) {
  std::printf("\nUCT with random playouts, %d playouts per turn, one turn per position\n",
              o.playouts);
  std::printf("%-8s %8s %14s %12s\n", "size", "threads", "playouts/s", "turns/s");
  for (int size : {7, 10}) {
    for (int threads : {1, 2}) {
      const UctBench b = BenchUct(o.rules, size, o.playouts, threads, o.positions);
      std::printf("%-8s %8d %14.0f %12.2f\n", BoardName(size).c_str(), threads,
                  b.playouts_per_second, b.turns_per_second);
      std::fflush(stdout);
    }
  }
}

}  // namespace

void PrintSearchBench(const SearchBenchOptions& o) {
  TreeRows(o);
  BatchedRows(o);
  UctRows(o);
}

}  // namespace veletas::search
