// What `veletas bench search` prints: the search layer's speed without a network, measured
// with search/search_bench.h.
#pragma once

#include "rules/position.h"

namespace veletas::search {

struct SearchBenchOptions {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int simulations = 800;  // MCTS simulations per search
  int positions = 20;     // positions searched per row
  int leaves = 8;         // leaves collected per evaluator batch
  int playouts = 2000;    // UCT playouts per turn
};

// Measures and prints to stdout, on 7x7 and 10x10 positions from seeded random games:
// PUCT and Gumbel MCTS with a zero-cost evaluator (simulations/s, nodes per search, bytes
// per node, MiB per search); the same driven in batches through a BatchingEvaluator
// (simulations/s, batches, mean batch); UCT random playouts on 1 and 2 threads.
void PrintSearchBench(const SearchBenchOptions& o);

}  // namespace veletas::search
