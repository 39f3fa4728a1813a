#include "search/fake_evaluators.h"

#include "rules/turns.h"
#include "util/random.h"

namespace veletas::search {
namespace {

// Uniform in [0, 1) from 53 bits of x.
double Unit(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }

// The k-th legal action (squares in increasing order, then the pass slot).
rules::Action NthAction(const rules::ActionSet& legal, int k, int size) {
  for (int sq : legal.squares) {
    if (k-- == 0) return sq;
  }
  return size * size;
}

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

float TerminalValue(const rules::Position& pos) {
  return pos.Winner() == pos.ToMove() ? 1.0f : -1.0f;
}

float RandomPlayoutValue(const rules::Position& pos, util::Rng& rng) {
  rules::Position p = pos;
  const int start_turn = p.TurnsPlayed();
  // Finish a turn in progress with uniformly random sub-decisions (cheaper than drawing
  // uniformly among its completions, and just as good for a playout).
  if (!p.IsTerminal() && !rules::AtTurnStart(p)) {
    while (!p.IsTerminal() && p.TurnsPlayed() == start_turn) {
      const rules::ActionSet legal = p.LegalActions();
      p.Apply(NthAction(legal, static_cast<int>(rng.Below(legal.Count())), p.Size()));
    }
  }
  while (!p.IsTerminal()) rules::ApplyTurn(p, rules::RandomTurn(p, rng));
  // Compare players, not colours: a swap during the playout changes who holds which colour.
  return p.PlayerOf(*p.Winner()) == pos.ToMovePlayer() ? 1.0f : -1.0f;
}

void RolloutEvaluator::Evaluate(std::span<const rules::Position> positions,
                                std::span<EvalOutput> out) {
  for (size_t i = 0; i < positions.size(); ++i) {
    out[i] = EvalOutput{};
    // Nearly uniform priors in a random order: UCT tries unvisited children in prior order,
    // and a fixed order would favour low squares when there are fewer visits than children.
    const rules::ActionSet legal = positions[i].LegalActions();
    double sum = 0;
    auto weight = [&](int a) {
      out[i].policy[a] = static_cast<float>(1.0 + 0.01 * rng_.Uniform());
      sum += out[i].policy[a];
    };
    for (int sq : legal.squares) weight(sq);
    if (legal.pass) weight(positions[i].PassAction());
    for (float& p : out[i].policy) p = static_cast<float>(p / sum);
    out[i].value = RandomPlayoutValue(positions[i], rng_);
    ++playouts_;
  }
}

}  // namespace veletas::search
