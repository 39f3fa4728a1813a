// Running many searches with one batched evaluator: the loop self-play and the arena use to
// keep an evaluator's batches full without a thread per game.
#pragma once

#include <span>
#include <vector>

#include "search/evaluator.h"
#include "search/mcts.h"

namespace veletas::search {

// Runs every search in `searches` to the end. Each round collects up to
// `leaves_per_search` leaves from every unfinished search (0: each search's own
// config.leaves_per_batch) and evaluates all of them with one evaluator call. Each search
// must have been started (Mcts::StartSearch) and have no leaves in flight. Afterwards read
// each one's Result(). Not thread-safe with respect to the searches; `evaluator` is called
// from this thread only.
void RunSearchesBatched(std::span<Mcts* const> searches, Evaluator& evaluator,
                        int leaves_per_search = 0);

}  // namespace veletas::search
