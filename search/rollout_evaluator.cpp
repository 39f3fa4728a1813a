#include "search/rollout_evaluator.h"

#include "rules/turns.h"

namespace veletas::search {
namespace {

// The k-th legal action (squares in increasing order, then the pass slot).
rules::Action NthAction(const rules::ActionSet& legal, int k, int size) {
  for (int sq : legal.squares) {
    if (k-- == 0) return sq;
  }
  return size * size;
}

}  // namespace

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
