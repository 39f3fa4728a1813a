#include "search/fake_evaluators.h"

#include "util/random.h"

namespace veletas::search {
namespace {

// Uniform in [0, 1) from 53 bits of x.
double Unit(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }

}  // namespace

void FillUniformPolicy(const rules::Position& pos, EvalOutput& out) {
  const rules::ActionSet legal = pos.LegalActions();
  const float p = 1.0f / static_cast<float>(legal.Count());
  for (int sq : legal.squares) out.policy[sq] = p;
  if (legal.pass) out.policy[pos.PassAction()] = p;
}

void UniformEvaluator::Evaluate(std::span<const rules::Position> positions,
                                std::span<EvalOutput> out) {
  for (size_t i = 0; i < positions.size(); ++i) {
    out[i] = EvalOutput{};
    FillUniformPolicy(positions[i], out[i]);
  }
}

EvalOutput HashEvaluator::EvaluateOne(const rules::Position& pos) const {
  EvalOutput out;
  const uint64_t h = util::SplitMix64(pos.Hash() ^ seed_);
  const rules::ActionSet legal = pos.LegalActions();
  double sum = 0;
  auto weight = [&](int a) {
    // In (0.05, 1]: every legal action keeps a clearly positive prior.
    const double w = 0.05 + 0.95 * (1.0 - Unit(util::SplitMix64(h + static_cast<uint64_t>(a) + 1)));
    out.policy[a] = static_cast<float>(w);
    sum += w;
  };
  for (int sq : legal.squares) weight(sq);
  if (legal.pass) weight(pos.PassAction());
  for (int a = 0; a <= pos.PassAction(); ++a) {
    out.policy[a] = static_cast<float>(out.policy[a] / sum);
  }
  out.value = static_cast<float>((2.0 * Unit(h) - 1.0) * value_scale_);
  return out;
}

void HashEvaluator::Evaluate(std::span<const rules::Position> positions,
                             std::span<EvalOutput> out) {
  for (size_t i = 0; i < positions.size(); ++i) out[i] = EvaluateOne(positions[i]);
}

void FunctionEvaluator::Evaluate(std::span<const rules::Position> positions,
                                 std::span<EvalOutput> out) {
  for (size_t i = 0; i < positions.size(); ++i) {
    out[i] = EvalOutput{};
    fn_(positions[i], out[i]);
  }
}

}  // namespace veletas::search
