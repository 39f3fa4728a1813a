#include "play/turn_search.h"

#include <algorithm>
#include <chrono>

#include "rules/notation.h"
#include "search/node.h"
#include "search/player.h"
#include "search/uct_player.h"

namespace veletas::play {
namespace {

using Clock = std::chrono::steady_clock;
using search::Node;

constexpr int kMaxPvTurns = 8;

// The last sub-decision of a turn: its search gets the rest of the budget.
bool LastOfTurn(const rules::Position& pos) {
  if (pos.Pending() == rules::Decision::kSetupShooter && pos.Rules() == rules::RuleSet::kClassic) {
    // Classic setups end with the last shooter of the turn (there is no setup stone).
    const rules::SizeRules sr = rules::RulesForSize(pos.Size());
    const int share =
        pos.ToMove() == rules::Color::kBlack ? sr.black_setup : sr.shooters - sr.black_setup;
    return pos.PlacedThisTurn() == share - 1;
  }
  return pos.Pending() == rules::Decision::kShot || pos.Pending() == rules::Decision::kSetupStone;
}

float WinRateOf(int8_t proven, float q) {
  return proven > 0 ? 1.0f : proven < 0 ? 0.0f : search::WinRate(q);
}

const Node* MostVisitedChild(const Node* node) {
  const Node* best = nullptr;
  for (const Node* c = node->child; c != nullptr; c = c->sibling) {
    if (c->n > 0 && (best == nullptr || c->n > best->n)) best = c;
  }
  return best;
}

// Where a walk along the tree ended its first full turn.
struct TurnEnd {
  const Node* node = nullptr;
  bool flipped = false;  // ToMovePlayer at `node` differs from the walk's start
};

// Walks from `node` (at `pos`, the start of a turn) along the most visited children, taking
// `first` as the first action when it is >= 0. Appends complete turns to `out` (at most
// `max_turns`) and returns where the first turn ended (node null if it did not complete).
TurnEnd Walk(const Node* node, rules::Position pos, rules::Action first, int max_turns,
             std::vector<rules::Turn>& out) {
  TurnEnd first_end;
  bool flipped = false;
  rules::Turn turn;
  int turn_start = pos.TurnsPlayed();
  while (static_cast<int>(out.size()) < max_turns && !pos.IsTerminal() && node->Expanded()) {
    const Node* next = nullptr;
    if (first >= 0 && out.empty() && turn.length == 0) {
      for (int i = 0; i < node->num_edges; ++i) {
        if (node->edges[i].action == first) next = node->ChildAt(i);
      }
      if (next != nullptr && next->n == 0) next = nullptr;
    } else {
      next = MostVisitedChild(node);
    }
    if (next == nullptr || turn.length == rules::Turn::kMaxLength) break;
    const rules::Action a = node->edges[next->edge_index].action;
    turn.Push(a);
    pos.Apply(a);
    flipped ^= next->Flip();
    node = next;
    if (pos.IsTerminal() || pos.TurnsPlayed() != turn_start) {
      if (out.empty()) first_end = {node, flipped};
      out.push_back(turn);
      turn = rules::Turn();
      turn_start = pos.TurnsPlayed();
    }
  }
  return first_end;
}

}  // namespace

std::unique_ptr<TurnSearcher> TurnSearcher::Neural(search::Evaluator& evaluator,
                                                   const search::SearchConfig& config,
                                                   uint64_t seed) {
  return std::unique_ptr<TurnSearcher>(new TurnSearcher(&evaluator, config, seed, false));
}

std::unique_ptr<TurnSearcher> TurnSearcher::Uct(float c_uct, uint64_t seed) {
  return std::unique_ptr<TurnSearcher>(
      new TurnSearcher(nullptr, search::UctTreeConfig(c_uct), seed, true));
}

TurnSearcher::TurnSearcher(search::Evaluator* evaluator, const search::SearchConfig& config,
                           uint64_t seed, bool uct)
    : evaluator_(evaluator), mcts_(config, seed) {
  if (uct) {
    rollouts_ = std::make_unique<search::RolloutEvaluator>(seed + 1);
    evaluator_ = rollouts_.get();
  }
}

void TurnSearcher::Seed(uint64_t seed) {
  mcts_.Seed(seed);
  if (rollouts_) *rollouts_ = search::RolloutEvaluator(seed + 1);
}

std::string TurnSearcher::AlgorithmName() const {
  switch (mcts_.Config().algorithm) {
    case search::Algorithm::kPuct:
      return "puct";
    case search::Algorithm::kGumbel:
      return "gumbel";
    case search::Algorithm::kUct:
      return "uct";
  }
  return "?";
}

search::SearchResult TurnSearcher::SearchRoot(int visits, double seconds) {
  if (visits > 0) {
    search::SearchResult r = mcts_.Run(*evaluator_, visits);
    simulations_ += r.simulations;
    return r;
  }
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  const int chunk = std::max(16, 2 * mcts_.Config().leaves_per_batch);
  for (;;) {
    search::SearchResult r = mcts_.Run(*evaluator_, chunk);
    simulations_ += r.simulations;
    if (Clock::now() >= deadline || r.proven != 0) return r;
  }
}

TurnAnalysis TurnSearcher::Search(const rules::Position& pos, const SearchBudget& budget,
                                  int max_candidates) {
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(budget.time_ms);
  simulations_ = 0;
  mcts_.SetPosition(pos);
  TurnAnalysis analysis;
  std::vector<TurnCandidate> alternatives;
  int playouts_left = budget.visits;
  const int start_turn = pos.TurnsPlayed();
  for (bool first = true;; first = false) {
    const rules::Position& root = mcts_.RootPosition();
    const bool last = LastOfTurn(root);
    // A forced sub-decision (one legal action) that does not end the turn gets the least
    // search (a UCT playout, or one chunk of a time budget).
    const bool forced = !last && root.LegalActions().Count() == 1;
    int visits = 0;
    double seconds = 0.0;
    if (forced && (budget.time_ms > 0 || IsUct())) {
      visits = budget.time_ms > 0 ? 0 : 1;
    } else if (budget.time_ms > 0) {
      const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
      seconds = std::max(0.0, last ? left : left / 2);
    } else if (IsUct()) {
      visits = last ? playouts_left : std::max(1, playouts_left / 2);
      playouts_left = std::max(0, playouts_left - visits);
      visits = std::max(1, visits);
    } else {
      visits = budget.visits;
    }
    const search::SearchResult r = SearchRoot(visits, seconds);
    if (first) {
      // Candidates read from the tree of the turn's first search, most visited first.
      for (const search::ChildInfo& c : r.children) {
        if (static_cast<int>(alternatives.size()) == max_candidates || c.visits == 0) break;
        TurnCandidate cand;
        const TurnEnd end = Walk(mcts_.Root(), root, c.action, kMaxPvTurns, cand.pv);
        if (end.node == nullptr) continue;
        cand.turn = cand.pv.front();
        cand.visits = end.node->n;
        cand.proven = static_cast<int8_t>(end.flipped ? -end.node->proven : end.node->proven);
        cand.win_rate = WinRateOf(cand.proven, end.flipped ? -end.node->q : end.node->q);
        alternatives.push_back(std::move(cand));
      }
    }
    analysis.best.turn.Push(r.action);
    for (const search::ChildInfo& c : r.children) {
      if (c.action != r.action) continue;
      analysis.best.visits = c.visits;
      analysis.best.proven = c.proven;
      analysis.best.win_rate = WinRateOf(c.proven, c.visits > 0 ? c.q : r.value);
    }
    mcts_.Advance(r.action);
    const rules::Position& now = mcts_.RootPosition();
    if (now.IsTerminal() || now.TurnsPlayed() != start_turn) break;
  }
  // The chosen turn's continuation: the most visited path of what is left of the tree.
  analysis.best.pv.push_back(analysis.best.turn);
  if (!mcts_.RootPosition().IsTerminal() && mcts_.Root() != nullptr) {
    Walk(mcts_.Root(), mcts_.RootPosition(), -1, kMaxPvTurns, analysis.best.pv);
  }
  analysis.candidates.push_back(analysis.best);
  for (TurnCandidate& c : alternatives) {
    if (static_cast<int>(analysis.candidates.size()) == max_candidates) break;
    if (!(c.turn == analysis.best.turn)) analysis.candidates.push_back(std::move(c));
  }
  analysis.simulations = simulations_;
  analysis.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return analysis;
}

std::string PvToString(const rules::Position& pos, const std::vector<rules::Turn>& pv) {
  std::string out;
  rules::Position p = pos;
  for (const rules::Turn& t : pv) {
    if (!out.empty()) out += ' ';
    out += rules::TurnToString(p, t);
    rules::ApplyTurn(p, t);
  }
  return out;
}

}  // namespace veletas::play
