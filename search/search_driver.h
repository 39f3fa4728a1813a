// Running many searches with one batched evaluator: the loop self-play and the arena use to
// keep an evaluator's batches full without a thread per game.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "search/evaluator.h"
#include "search/mcts.h"

namespace veletas::search {

// Buffers of StepSearchesBatched, kept by the caller so that rounds do not allocate.
struct BatchBuffers {
  std::vector<rules::Position> positions;
  std::vector<EvalOutput> outputs;
  std::vector<int> counts;
};

// One round of the searches in `searches` (each started with Mcts::StartSearch and not
// finished): collects up to `leaves_per_search` leaves from each (0: each search's own
// config.leaves_per_batch), evaluates all of them with one evaluator call (none when no
// leaf was collected) and gives each search its evaluations. Returns the number of
// positions evaluated. Not thread-safe with respect to the searches or `buffers`;
// `evaluator` is called from this thread only.
size_t StepSearchesBatched(std::span<Mcts* const> searches, Evaluator& evaluator,
                           int leaves_per_search, BatchBuffers& buffers);

// Runs every search in `searches` to the end with StepSearchesBatched rounds. Each search
// must have been started (Mcts::StartSearch) and have no leaves in flight. Afterwards read
// each one's Result(). Thread safety as StepSearchesBatched.
void RunSearchesBatched(std::span<Mcts* const> searches, Evaluator& evaluator,
                        int leaves_per_search = 0);

}  // namespace veletas::search
