#include "search/search_driver.h"

namespace veletas::search {

void RunSearchesBatched(std::span<Mcts* const> searches, Evaluator& evaluator,
                        int leaves_per_search) {
  std::vector<Mcts*> active(searches.begin(), searches.end());
  std::vector<rules::Position> positions;
  std::vector<EvalOutput> outputs;
  std::vector<int> counts;
  while (!active.empty()) {
    positions.clear();
    counts.clear();
    for (Mcts* s : active) {
      const int k = leaves_per_search > 0 ? leaves_per_search : s->Config().leaves_per_batch;
      counts.push_back(s->CollectLeaves(k, positions));
    }
    outputs.assign(positions.size(), EvalOutput{});
    if (!positions.empty()) evaluator.Evaluate(positions, outputs);
    size_t offset = 0;
    std::vector<Mcts*> still;
    for (size_t i = 0; i < active.size(); ++i) {
      active[i]->ProvideEvaluations(
          std::span<const EvalOutput>(outputs.data() + offset, static_cast<size_t>(counts[i])));
      offset += static_cast<size_t>(counts[i]);
      if (!active[i]->Finished()) still.push_back(active[i]);
    }
    active.swap(still);
  }
}

}  // namespace veletas::search
