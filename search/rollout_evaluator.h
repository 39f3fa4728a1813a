// The random-playout evaluator of the no-network baseline (UCT, search/uct_player.h) and of
// the play layer's "uct" searcher (play/turn_search.h): leaves valued by one game played to
// the end with uniformly random turns.
#pragma once

#include <cstdint>
#include <span>

#include "rules/position.h"
#include "search/evaluator.h"
#include "util/random.h"

namespace veletas::search {

// Result of one game played to the end from `pos` with uniformly random full turns
// (rules::RandomTurn; a turn in progress is finished uniformly over its completions):
// +1 if the player to move in `pos` (Position::ToMovePlayer) wins, -1 otherwise.
// Terminal `pos`: the exact result.
float RandomPlayoutValue(const rules::Position& pos, util::Rng& rng);

// Value = one random playout (RandomPlayoutValue); priors nearly uniform (within 1%) in a
// random order, so that UCT's "unvisited children first, in prior order" tries them in a
// random order. Owns its util::Rng: not thread-safe, use one per thread. The same seed and
// positions give the same outputs.
class RolloutEvaluator : public Evaluator {
 public:
  explicit RolloutEvaluator(uint64_t seed) : rng_(seed) {}
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override;
  // Playouts played so far.
  uint64_t Playouts() const { return playouts_; }

 private:
  util::Rng rng_;
  uint64_t playouts_ = 0;
};

}  // namespace veletas::search
