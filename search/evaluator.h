// The batched evaluator interface between search and networks. Torch-free: search and
// self-play depend only on this; the model layer implements it with LibTorch, and tests
// use deterministic fake evaluators.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

#include "rules/geometry.h"
#include "rules/position.h"

namespace veletas::search {

// The network's opinion of one position at a sub-decision point.
struct EvalOutput {
  // Probability of each action of the pending sub-decision, indexed by action (square
  // row * N + col, or the pass slot N * N). Zero for illegal actions; sums to 1 over the
  // legal ones. Entries past N * N are unused.
  std::array<float, rules::kMaxActions> policy{};
  // Expected final result in [-1, 1] for the player to move (Position::ToMovePlayer).
  float value = 0.0f;
};

// How the search reads an EvalOutput (Mcts::Expand), one definition for every place that
// must reproduce it exactly (the spot check, selfplay/spot_check.h):
// The value a node takes from EvalOutput::value: clamped into [-1, 1]; 0 when not finite.
inline float SearchValue(float value) {
  return std::isfinite(value) ? std::clamp(value, -1.0f, 1.0f) : 0.0f;
}
// The weight a legal action's policy entry gives its prior before normalising: the entry,
// or 0 when it is not finite or not positive.
inline float PriorWeight(float p) { return std::isfinite(p) && p > 0 ? p : 0.0f; }
// A legal action's prior from its weight: weight / sum of the `count` legal actions'
// weights (summed in double, in the order Expand lists them: squares ascending, then the
// pass slot); uniform 1 / count when that sum is 0.
inline float NormalizedPrior(float weight, double sum, int count) {
  return sum > 0 ? static_cast<float>(weight / sum) : 1.0f / static_cast<float>(count);
}

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Evaluates `positions` into `out` (same length). Preconditions: no position is
  // terminal; out.size() == positions.size(). Thread safety: stated by each
  // implementation.
  virtual void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) = 0;
};

}  // namespace veletas::search
