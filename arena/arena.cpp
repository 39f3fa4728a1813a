// The arena's match loop: games started with their players and openings, stepped together
// (batched neural searches, UCT turns on threads of their own, random moves), finished in order.
#include "arena/arena.h"

#include <algorithm>

#include "arena/arena_slot.h"
#include "search/search_driver.h"
#include "search/uct_player.h"
#include "util/clock.h"

namespace veletas::arena {
namespace {

// The player chooses its turns on the arena's threads (UCT and timed players).
bool OnThreads(const ArenaPlayer& p) { return p.spec.kind == PlayerKind::kUct || p.spec.Timed(); }

}  // namespace

Arena::Arena(ArenaPlayer a, ArenaPlayer b, rules::RuleSet rules, int size,
             const ArenaConfig& config)
    : a_(std::move(a)),
      b_(std::move(b)),
      rules_(rules),
      size_(size),
      config_(config),
      openings_(rules, size, config.opening_turns, config.seed),
      created_(util::SteadySeconds()) {}

Arena::~Arena() = default;

int Arena::AWins() const {
  return static_cast<int>(
      std::count_if(games_.begin(), games_.end(), [](const ArenaGame& g) { return g.a_won; }));
}

std::unique_ptr<Arena::Slot> Arena::StartGame(int index) {
  auto slot = std::make_unique<Slot>();
  slot->index = index;
  slot->a_first = index % 2 == 0;
  slot->pos = rules::Position::Initial(rules_, size_);
  for (int side = 0; side < 2; ++side) {
    const ArenaPlayer& p = side == 0 ? a_ : b_;
    const uint64_t seed = ArenaPlayerSeed(config_.seed, index, side);
    if (p.spec.Timed()) {
      slot->sync[side] = p.timed(seed);
      continue;
    }
    switch (p.spec.kind) {
      case PlayerKind::kRandom:
        slot->sync[side] = search::MakeRandomPlayer(seed);
        break;
      case PlayerKind::kUct: {
        search::UctConfig uct;
        uct.playouts = p.spec.budget;
        uct.threads = 1;
        uct.c_uct = static_cast<float>(p.spec.c_uct > 0 ? p.spec.c_uct : search::TunedUctC(size_));
        slot->sync[side] = search::MakeUctPlayer(uct, seed);
        break;
      }
      case PlayerKind::kMcts: {
        search::SearchConfig sc = search::ForPlay(p.search);
        sc.simulations = p.spec.budget;
        slot->mcts[side] = std::make_unique<search::Mcts>(sc, seed);
        slot->evaluator[side] = p.evaluator;
        break;
      }
    }
  }
  for (const rules::Turn& t : openings_.Get(index / 2)) {
    const rules::Position before = slot->pos;
    rules::ApplyTurn(slot->pos, t);
    slot->AddTurn(before, t);
    ++stats_.turns;
  }
  return slot;
}

ArenaGame Arena::FinishGame(const Slot& s) const {
  ArenaGame g;
  g.index = s.index;
  g.a_first = s.a_first;
  g.a_colour = s.pos.ColorOf(s.a_first ? 0 : 1);
  g.a_won = s.pos.Winner() == g.a_colour;
  g.turns = s.turns;
  g.record = s.record;
  return g;
}

void Arena::Restore(const std::vector<ArenaGame>& games) {
  for (const ArenaGame& g : games) restored_[g.index] = g;
}

void Arena::PlayNeuralAction(Slot& s, rules::Action action) {
  s.mcts[s.side]->Advance(action);
  s.pos.Apply(action);
  s.partial.Push(action);
}

void Arena::ContinueTurn(Slot& s) {
  // A sub-decision with one legal action is played without a search.
  while (!s.pos.IsTerminal() && s.pos.TurnsPlayed() == s.turn_start.TurnsPlayed()) {
    const rules::ActionSet legal = s.pos.LegalActions();
    if (legal.Count() != 1) {
      s.mcts[s.side]->StartSearch();
      s.state = Slot::State::kSearch;
      return;
    }
    PlayNeuralAction(s, legal.pass ? s.pos.PassAction() : *legal.squares.begin());
  }
  s.AddTurn(s.turn_start, s.partial);
  ++stats_.turns;
  s.state = Slot::State::kIdle;
}

void Arena::Play(int count, const ArenaProgressFn& progress,
                 const std::function<void(const ArenaGame&)>& on_game) {
  std::vector<int> indices;
  for (int i = GamesPlayed(); i < GamesPlayed() + count; ++i) indices.push_back(i);
  const std::vector<ArenaGame> finished =
      Run(indices, GamesPlayed() + std::max(0, count), AWins(), BWins(), progress, on_game);
  games_.insert(games_.end(), finished.begin(), finished.end());
}

std::vector<ArenaGame> Arena::PlayGames(const std::vector<int>& indices,
                                        const std::function<void(const ArenaGame&)>& on_game) {
  return Run(indices, static_cast<int>(indices.size()), 0, 0, {}, on_game);
}

// The state of one Run call.
struct Arena::Round {
  Round(const std::vector<int>& indices_in, int total_in, int a_wins_in, int b_wins_in,
        const ArenaProgressFn& progress_in, const std::function<void(const ArenaGame&)>& on_game_in)
      : indices(indices_in),
        total(total_in),
        a_wins(a_wins_in),
        b_wins(b_wins_in),
        progress(progress_in),
        on_game(on_game_in) {}
  const std::vector<int>& indices;
  size_t next = 0;  // position in `indices`
  int total = 0;
  int a_wins = 0, b_wins = 0;
  const ArenaProgressFn& progress;
  const std::function<void(const ArenaGame&)>& on_game;
  std::vector<ArenaGame> finished;
  std::vector<search::Evaluator*> evaluators;  // distinct, A's first
  // Declared before the UCT threads, so that they are joined before slots go away.
  std::vector<std::unique_ptr<Slot>> active;
  std::unique_ptr<UctThreads> uct_threads;
  int sync_pending = 0;
  std::vector<search::Mcts*> searches;
  search::BatchBuffers buffers;
  std::vector<Slot*> done;
};

std::vector<ArenaGame> Arena::Run(const std::vector<int>& indices, int total, int a_wins,
                                  int b_wins, const ArenaProgressFn& progress,
                                  const std::function<void(const ArenaGame&)>& on_game) {
  const double start = util::SteadySeconds();
  Round r(indices, total, a_wins, b_wins, progress, on_game);
  // Distinct evaluators, A's first: one Evaluate call per evaluator and round.
  for (const ArenaPlayer* p : {&a_, &b_}) {
    if (p->spec.kind == PlayerKind::kMcts &&
        std::find(r.evaluators.begin(), r.evaluators.end(), p->evaluator) == r.evaluators.end()) {
      r.evaluators.push_back(p->evaluator);
    }
  }
  if (OnThreads(a_) || OnThreads(b_)) {
    r.uct_threads = std::make_unique<UctThreads>(config_.threads);
  }
  while ((r.next < indices.size() || !r.active.empty()) && !(stop_ != nullptr && stop_->load())) {
    FillSlots(r);
    MoveIdleGames(r);
    RetireFinished(r);  // their slots are refilled in the next iteration
    const bool searching = StepSearches(r);
    AdvanceSearches(r);
    // UCT turns: wait for one only when there is nothing else to do.
    ApplyUctTurns(r, !searching);
  }
  std::sort(r.finished.begin(), r.finished.end(),
            [](const ArenaGame& x, const ArenaGame& y) { return x.index < y.index; });
  stats_.seconds += util::SteadySeconds() - start;
  return std::move(r.finished);
}

void Arena::FillSlots(Round& r) {
  while (static_cast<int>(r.active.size()) < config_.games_in_parallel &&
         r.next < r.indices.size()) {
    const auto restored = restored_.find(r.indices[r.next]);
    if (restored == restored_.end()) {
      r.active.push_back(StartGame(r.indices[r.next++]));
      continue;
    }
    r.finished.push_back(restored->second);
    restored_.erase(restored);
    ++r.next;
    (r.finished.back().a_won ? r.a_wins : r.b_wins)++;
    if (r.progress) {
      r.progress(
          {r.a_wins + r.b_wins, r.total, r.a_wins, r.b_wins, util::SteadySeconds() - created_});
    }
  }
}

void Arena::MoveIdleGames(Round& r) {
  // Random players move at once, UCT players go to the UCT threads, neural players start a
  // search for the pending sub-decision.
  for (auto& s : r.active) {
    while (s->state == Slot::State::kIdle && !s->pos.IsTerminal()) {
      s->side = s->SideToMove();
      if (s->mcts[s->side]) {
        s->turn_start = s->pos;
        s->partial = rules::Turn{};
        s->mcts[s->side]->SetPosition(s->pos);
        ContinueTurn(*s);
      } else if (OnThreads(s->side == 0 ? a_ : b_)) {
        s->state = Slot::State::kSync;
        ++r.sync_pending;
        r.uct_threads->Submit(s.get());
      } else {
        const rules::Position before = s->pos;
        const rules::Turn t = s->sync[s->side]->ChooseTurn(s->pos).turn;
        rules::ApplyTurn(s->pos, t);
        s->AddTurn(before, t);
        ++stats_.turns;
      }
    }
  }
}

void Arena::RetireFinished(Round& r) {
  for (size_t i = 0; i < r.active.size();) {
    Slot& s = *r.active[i];
    if (s.state != Slot::State::kIdle || !s.pos.IsTerminal()) {
      ++i;
      continue;
    }
    r.finished.push_back(FinishGame(s));
    (r.finished.back().a_won ? r.a_wins : r.b_wins)++;
    r.active.erase(r.active.begin() + static_cast<long>(i));
    if (r.on_game) r.on_game(r.finished.back());
    if (r.progress) {
      r.progress(
          {r.a_wins + r.b_wins, r.total, r.a_wins, r.b_wins, util::SteadySeconds() - created_});
    }
  }
}

bool Arena::StepSearches(Round& r) {
  // One round of the neural searches: one batched step per model (each search collects
  // its own config's leaves_per_batch).
  bool searching = false;
  for (search::Evaluator* ev : r.evaluators) {
    r.searches.clear();
    for (auto& s : r.active) {
      if (s->state == Slot::State::kSearch && s->evaluator[s->side] == ev) {
        r.searches.push_back(s->mcts[s->side].get());
      }
    }
    if (r.searches.empty()) continue;
    searching = true;
    const size_t evaluated = search::StepSearchesBatched(r.searches, *ev, 0, r.buffers);
    stats_.evaluations += evaluated;
    if (evaluated > 0) ++stats_.evaluate_calls;
  }
  return searching;
}

void Arena::AdvanceSearches(Round& r) {
  // A search starts for the next sub-decision of the same turn, or the turn is complete.
  for (auto& s : r.active) {
    if (s->state != Slot::State::kSearch) continue;
    search::Mcts& m = *s->mcts[s->side];
    if (!m.Finished()) continue;
    PlayNeuralAction(*s, m.Result().action);
    ContinueTurn(*s);
  }
}

void Arena::ApplyUctTurns(Round& r, bool wait) {
  if (r.sync_pending == 0) return;
  r.done.clear();
  r.uct_threads->TakeDone(r.done, wait);
  for (Slot* s : r.done) {
    const rules::Position before = s->pos;
    rules::ApplyTurn(s->pos, s->sync_turn);
    s->AddTurn(before, s->sync_turn);
    ++stats_.turns;
    if ((s->side == 0 ? a_ : b_).spec.Timed()) {
      ++stats_.timed_turns[s->side];
      stats_.timed_simulations[s->side] += static_cast<uint64_t>(s->sync_simulations);
    }
    s->state = Slot::State::kIdle;
    --r.sync_pending;
  }
}

}  // namespace veletas::arena
