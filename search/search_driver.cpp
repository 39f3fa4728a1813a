#include "search/search_driver.h"

namespace veletas::search {

size_t StepSearchesBatched(std::span<Mcts* const> searches, Evaluator& evaluator,
                           int leaves_per_search, BatchBuffers& buffers) {
  buffers.positions.clear();
  buffers.counts.clear();
  for (Mcts* s : searches) {
    const int k = leaves_per_search > 0 ? leaves_per_search : s->Config().leaves_per_batch;
    buffers.counts.push_back(s->CollectLeaves(k, buffers.positions));
  }
  buffers.outputs.assign(buffers.positions.size(), EvalOutput{});
  if (!buffers.positions.empty()) evaluator.Evaluate(buffers.positions, buffers.outputs);
  size_t offset = 0;
  for (size_t i = 0; i < searches.size(); ++i) {
    const size_t n = static_cast<size_t>(buffers.counts[i]);
    searches[i]->ProvideEvaluations(
        std::span<const EvalOutput>(buffers.outputs.data() + offset, n));
    offset += n;
  }
  return buffers.positions.size();
}

void RunSearchesBatched(std::span<Mcts* const> searches, Evaluator& evaluator,
                        int leaves_per_search) {
  std::vector<Mcts*> active(searches.begin(), searches.end());
  BatchBuffers buffers;
  while (!active.empty()) {
    StepSearchesBatched(active, evaluator, leaves_per_search, buffers);
    std::erase_if(active, [](const Mcts* s) { return s->Finished(); });
  }
}

}  // namespace veletas::search
