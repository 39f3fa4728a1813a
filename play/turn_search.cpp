#include "play/turn_search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "rules/notation.h"
#include "search/node.h"
#include "search/player.h"
#include "search/uct_player.h"
#include "util/clock.h"

namespace veletas::play {
namespace {

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

void TurnSearcher::SetMaxNodes(int64_t max_nodes) {
  search::SearchConfig config = mcts_.Config();
  config.max_nodes = max_nodes;
  mcts_.SetConfig(config);
}

std::string TurnSearcher::AlgorithmName() const {
  return search::AlgorithmName(mcts_.Config().algorithm);
}

TurnAnalysis TurnSearcher::Search(const rules::Position& pos, const SearchBudget& budget,
                                  int max_candidates) {
  Begin(pos, budget, max_candidates);
  std::vector<rules::Position> positions;
  std::vector<search::EvalOutput> outputs;
  for (;;) {
    positions.clear();
    const int k = CollectLeaves(positions);
    if (k == 0) return analysis_;
    outputs.assign(static_cast<size_t>(k), search::EvalOutput{});
    evaluator_->Evaluate(positions, outputs);
    ProvideEvaluations(outputs);
  }
}

TurnAnalysis TurnSearcher::Grow(const rules::Position& pos, int simulations, int max_candidates) {
  Abandon();
  const double start = now_();
  mcts_.SetPosition(pos);  // keeps the tree grown by earlier calls for `pos`
  mcts_.StartSearch(simulations);
  std::vector<rules::Position> positions;
  std::vector<search::EvalOutput> outputs;
  while (!mcts_.Finished()) {
    positions.clear();
    const int k = mcts_.CollectLeaves(mcts_.Config().leaves_per_batch, positions);
    outputs.assign(static_cast<size_t>(k), search::EvalOutput{});
    if (k > 0) evaluator_->Evaluate(positions, outputs);
    mcts_.ProvideEvaluations(outputs);  // k == 0: the round's end, as in Mcts::Run
  }
  const search::SearchResult r = mcts_.Result();
  max_candidates_ = max_candidates;
  alternatives_.clear();
  ReadCandidates(r);
  TurnAnalysis out;
  out.candidates = std::move(alternatives_);
  alternatives_.clear();
  if (!out.candidates.empty()) out.best = out.candidates.front();
  out.simulations = r.simulations;
  out.node_limit = r.node_limit;
  const int64_t configured = mcts_.Config().max_nodes;
  out.max_nodes = configured > 0 ? configured : search::DefaultMaxNodes();
  out.seconds = now_() - start;
  return out;
}

void TurnSearcher::Begin(const rules::Position& pos, const SearchBudget& budget,
                         int max_candidates) {
  if (active_) Abandon();
  start_ = now_();
  budget_ = budget;
  max_candidates_ = max_candidates;
  simulations_ = 0;
  mcts_.SetPosition(pos);
  analysis_ = TurnAnalysis();
  alternatives_.clear();
  playouts_left_ = budget.visits;
  start_turn_ = pos.TurnsPlayed();
  first_ = true;
  active_ = true;
  done_ = false;
  StartSubDecision();
}

void TurnSearcher::Abandon() {
  if (active_) mcts_.Clear();
  active_ = false;
}

void TurnSearcher::StartSubDecision() {
  const rules::Position& root = mcts_.RootPosition();
  const bool last = LastOfTurn(root);
  // A forced sub-decision (one legal action) that does not end the turn gets the least
  // search (a UCT playout, or one chunk of a time budget).
  const bool forced = !last && root.LegalActions().Count() == 1;
  int visits = 0;
  double seconds = 0.0;
  if (forced && (budget_.time_ms > 0 || IsUct())) {
    visits = budget_.time_ms > 0 ? 0 : 1;
  } else if (budget_.time_ms > 0) {
    const double left = start_ + budget_.time_ms / 1000.0 - now_();
    seconds = std::max(0.0, last ? left : left / 2);
  } else if (IsUct()) {
    visits = last ? playouts_left_ : std::max(1, playouts_left_ / 2);
    playouts_left_ = std::max(0, playouts_left_ - visits);
    visits = std::max(1, visits);
  } else {
    visits = budget_.visits;
  }
  timed_ = visits <= 0;
  if (timed_) {
    // Chunks until the sub-decision's share of the time is spent (at least one chunk).
    deadline_ = now_() + seconds;
    mcts_.StartSearch(std::max(16, 2 * mcts_.Config().leaves_per_batch));
  } else {
    mcts_.StartSearch(visits);
  }
}

int TurnSearcher::CollectLeaves(std::vector<rules::Position>& out) {
  while (!done_) {
    if (mcts_.Finished()) {
      FinishSearch();
      continue;
    }
    const int k = mcts_.CollectLeaves(mcts_.Config().leaves_per_batch, out);
    if (k > 0) return k;
    if (!mcts_.Finished()) {
      // Nothing is in flight between rounds, so an unfinished search always has a leaf.
      std::fprintf(stderr, "TurnSearcher: no progress (internal error)\n");
      std::abort();
    }
    mcts_.ProvideEvaluations({});  // the round's end, as in Mcts::Run
  }
  return 0;
}

void TurnSearcher::ProvideEvaluations(std::span<const search::EvalOutput> outputs) {
  mcts_.ProvideEvaluations(outputs);
}

void TurnSearcher::FinishSearch() {
  const search::SearchResult r = mcts_.Result();
  simulations_ += r.simulations;
  analysis_.node_limit = analysis_.node_limit || r.node_limit;
  if (timed_ && now_() < deadline_ && r.proven == 0 && !r.node_limit) {
    mcts_.StartSearch(std::max(16, 2 * mcts_.Config().leaves_per_batch));
    return;
  }
  if (first_) ReadCandidates(r);
  first_ = false;
  analysis_.best.turn.Push(r.action);
  for (const search::ChildInfo& c : r.children) {
    if (c.action != r.action) continue;
    analysis_.best.visits = c.visits;
    analysis_.best.proven = c.proven;
    analysis_.best.win_rate = WinRateOf(c.proven, c.visits > 0 ? c.q : r.value);
    analysis_.best.lcb =
        c.proven != 0 ? analysis_.best.win_rate : WinRateLcb(analysis_.best.win_rate, c.visits);
  }
  mcts_.Advance(r.action);
  const rules::Position& now = mcts_.RootPosition();
  if (now.IsTerminal() || now.TurnsPlayed() != start_turn_) {
    FinishTurn();
  } else {
    StartSubDecision();
  }
}

void TurnSearcher::ReadCandidates(const search::SearchResult& r) {
  // Candidates read from the tree of the turn's first search, most visited first.
  const rules::Position& root = mcts_.RootPosition();
  for (const search::ChildInfo& c : r.children) {
    if (static_cast<int>(alternatives_.size()) == max_candidates_ || c.visits == 0) break;
    TurnCandidate cand;
    const TurnEnd end = Walk(mcts_.Root(), root, c.action, kMaxPvTurns, cand.pv);
    if (end.node == nullptr) continue;
    cand.turn = cand.pv.front();
    cand.visits = end.node->n;
    cand.proven = static_cast<int8_t>(end.flipped ? -end.node->proven : end.node->proven);
    cand.win_rate = WinRateOf(cand.proven, end.flipped ? -end.node->q : end.node->q);
    cand.lcb = cand.proven != 0 ? cand.win_rate : WinRateLcb(cand.win_rate, cand.visits);
    alternatives_.push_back(std::move(cand));
  }
}

void TurnSearcher::FinishTurn() {
  // The chosen turn's continuation: the most visited path of what is left of the tree.
  analysis_.best.pv.push_back(analysis_.best.turn);
  if (!mcts_.RootPosition().IsTerminal() && mcts_.Root() != nullptr) {
    Walk(mcts_.Root(), mcts_.RootPosition(), -1, kMaxPvTurns, analysis_.best.pv);
  }
  analysis_.candidates.push_back(analysis_.best);
  for (TurnCandidate& c : alternatives_) {
    if (static_cast<int>(analysis_.candidates.size()) == max_candidates_) break;
    if (!(c.turn == analysis_.best.turn)) analysis_.candidates.push_back(std::move(c));
  }
  alternatives_.clear();
  analysis_.simulations = simulations_;
  const int64_t configured = mcts_.Config().max_nodes;
  analysis_.max_nodes = configured > 0 ? configured : search::DefaultMaxNodes();
  analysis_.seconds = now_() - start_;
  active_ = false;
  done_ = true;
}

float WinRateLcb(float win_rate, uint32_t visits) {
  if (visits == 0) return 0.0f;
  constexpr double kZ = 1.96;
  const double n = visits;
  const double p = std::clamp(static_cast<double>(win_rate), 0.0, 1.0);
  const double z2 = kZ * kZ;
  const double centre = p + z2 / (2 * n);
  const double spread = kZ * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return static_cast<float>(std::max(0.0, (centre - spread) / (1 + z2 / n)));
}

std::vector<std::string> PvMoves(const rules::Position& pos, const std::vector<rules::Turn>& pv) {
  std::vector<std::string> moves;
  rules::Position p = pos;
  for (const rules::Turn& t : pv) {
    moves.push_back(rules::TurnToString(p, t));
    rules::ApplyTurn(p, t);
  }
  return moves;
}

std::string PvToString(const rules::Position& pos, const std::vector<rules::Turn>& pv) {
  std::string out;
  for (const std::string& m : PvMoves(pos, pv)) out += (out.empty() ? "" : " ") + m;
  return out;
}

}  // namespace veletas::play
