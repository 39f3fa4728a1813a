// Deterministic stand-ins for a network: for tests of search, self-play and the arena, for
// benchmarks of the tree alone, and the web page's built-in evaluators ("uniform", "hash:N").
// Production code the search itself runs lives elsewhere: TerminalValue in
// search/terminal_value.h, the UCT baseline's RolloutEvaluator in search/rollout_evaluator.h.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "rules/position.h"
#include "search/evaluator.h"

namespace veletas::search {

// Writes the uniform distribution over the legal actions of `pos` into out.policy (zero
// elsewhere). Precondition: !pos.IsTerminal().
void FillUniformPolicy(const rules::Position& pos, EvalOutput& out);

// Uniform priors over the legal actions and value 0. Stateless and thread-safe; the
// "zero-cost" evaluator of the search benchmark.
class UniformEvaluator : public Evaluator {
 public:
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override;
};

// Pseudo-random priors and value, a fixed function of the position hash and `seed`: the
// same position always gets the same output. Priors are positive on every legal action;
// the value is uniform in [-value_scale, value_scale]. Stateless and thread-safe.
class HashEvaluator : public Evaluator {
 public:
  explicit HashEvaluator(uint64_t seed = 0, float value_scale = 1.0f)
      : seed_(seed), value_scale_(value_scale) {}
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override;
  // The output for one position (what Evaluate writes).
  EvalOutput EvaluateOne(const rules::Position& pos) const;

 private:
  uint64_t seed_;
  float value_scale_;
};

// Calls `fn(position, out)` for each position; `out` arrives zeroed. Thread safety: that
// of `fn`. Use it for table-driven or hand-written evaluations in tests.
class FunctionEvaluator : public Evaluator {
 public:
  using Fn = std::function<void(const rules::Position&, EvalOutput&)>;
  explicit FunctionEvaluator(Fn fn) : fn_(std::move(fn)) {}
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override;

 private:
  Fn fn_;
};

}  // namespace veletas::search
