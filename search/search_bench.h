// The search layer's own speed, shared by `veletas bench-search` and the browser page's
// benchmark (web/), so that both measure exactly the same work.
#pragma once

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

}  // namespace veletas::search
