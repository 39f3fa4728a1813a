#include "search/search_bench.h"

#include <chrono>
#include <cstdint>

#include "rules/turns.h"
#include "search/fake_evaluators.h"
#include "search/mcts.h"

namespace veletas::search {

TreeBench BenchTree(rules::RuleSet rules, int size, const SearchConfig& config, int simulations,
                    int positions) {
  const auto starts = rules::RandomTurnStarts(rules, size, positions, 17 + size);
  UniformEvaluator uniform;
  uint64_t total_sims = 0, nodes = 0, bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < starts.size(); ++i) {
    Mcts mcts(config, i);
    mcts.SetPosition(starts[i]);
    const SearchResult r = mcts.Run(uniform, simulations);
    total_sims += static_cast<uint64_t>(r.simulations);
    const TreeStats s = mcts.Stats();
    nodes += s.nodes;
    bytes += s.bytes;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  TreeBench b;
  b.simulations_per_second = static_cast<double>(total_sims) / secs;
  b.nodes_per_search = static_cast<double>(nodes) / starts.size();
  b.bytes_per_node = nodes == 0 ? 0.0 : static_cast<double>(bytes) / nodes;
  b.mib_per_search = static_cast<double>(bytes) / starts.size() / (1024.0 * 1024.0);
  return b;
}

}  // namespace veletas::search
