// The search layer's own speed, shared by `veletas bench search` and the browser page's
// benchmark (web/), so that both measure exactly the same work.
#pragma once

#include <cstdint>

#include "rules/position.h"
#include "search/search_config.h"

namespace veletas::search {

// What BenchTree measured.
struct TreeBench {
  double simulations_per_second = 0.0;
  double nodes_per_search = 0.0;
  double bytes_per_node = 0.0;
  double mib_per_search = 0.0;
};

// One search of `simulations` simulations (settings `config`, seeded with its index) on
// each of `positions` turn starts of seeded random games (rules::RandomTurnStarts with seed
// 17 + size) with the zero-cost evaluator (UniformEvaluator: uniform priors, value 0): the
// tree's own overhead. Only the searches are timed. Preconditions: supported size;
// positions >= 1; simulations >= 1.
TreeBench BenchTree(rules::RuleSet rules, int size, const SearchConfig& config, int simulations,
                    int positions);

// What BenchBatched measured.
struct BatchedBench {
  double simulations_per_second = 0.0;
  uint64_t batches = 0;     // batches the batching front end sent to the evaluator
  double mean_batch = 0.0;  // positions per batch
};

// The self-play pattern without a network: `searches` searches of `simulations` simulations
// each (settings `config`, seeded with their index) on turn starts of seeded random games
// (rules::RandomTurnStarts with seed 31 + size), driven together (RunSearchesBatched)
// through a BatchingEvaluator without cache or waiting over the zero-cost evaluator, so
// every leaf reaches it. Defined in search_bench_batched.cpp (threads; not in the page).
// Preconditions: supported size; searches >= 1; simulations >= 1.
BatchedBench BenchBatched(rules::RuleSet rules, int size, const SearchConfig& config,
                          int simulations, int searches);

// What BenchUct measured.
struct UctBench {
  double playouts_per_second = 0.0;
  double turns_per_second = 0.0;
};

// One turn of the UCT player (random playouts, `playouts` per turn on `threads` threads, seed
// 5) from each of `positions` turn starts of seeded random games (seed 23 + size). Defined in
// search_bench_batched.cpp. Preconditions: supported size; positions, playouts, threads >= 1.
UctBench BenchUct(rules::RuleSet rules, int size, int playouts, int threads, int positions);

}  // namespace veletas::search
