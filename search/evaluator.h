// The batched evaluator interface between search and networks. Torch-free: search and
// self-play depend only on this; the model layer implements it with LibTorch, and tests
// use deterministic fake evaluators.
#pragma once

#include <array>
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

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Evaluates `positions` into `out` (same length). Preconditions: no position is
  // terminal; out.size() == positions.size(). Thread safety: stated by each
  // implementation.
  virtual void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) = 0;
};

}  // namespace veletas::search
