#include "arena/arena.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "rules/notation.h"
#include "rules/symmetry.h"
#include "search/mcts.h"
#include "search/player.h"
#include "search/search_driver.h"
#include "search/uct_player.h"
#include "util/names.h"
#include "util/random.h"

namespace veletas::arena {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The smallest hash of the position under the 8 board symmetries: equal for openings that
// are mirror images of each other.
uint64_t CanonicalKey(const rules::Position& pos) {
  uint64_t key = pos.Hash();
  for (int sym = 1; sym < rules::kNumSymmetries; ++sym) {
    key = std::min(key, pos.Transformed(sym).Hash());
  }
  return key;
}

// A bound on the extra random turns an opening may get when openings repeat.
constexpr int kMaxExtraOpeningTurns = 40;
constexpr int kOpeningAttempts = 64;

}  // namespace

ArenaPlayer MakeGenerationPlayer(long long generation, const std::string& checkpoint,
                                 search::Evaluator& evaluator, const search::SearchConfig& search,
                                 int simulations) {
  ArenaPlayer p;
  p.name = GenerationName(generation);
  p.spec.kind = PlayerKind::kMcts;
  p.spec.checkpoint = checkpoint;
  p.spec.budget = simulations;
  p.evaluator = &evaluator;
  p.search = search;
  return p;
}

ArenaPlayer MakeBaselinePlayer(const PlayerSpec& spec) {
  ArenaPlayer p;
  p.name = DefaultPlayerName(spec);
  p.spec = spec;
  return p;
}

std::string ValidateArena(const ArenaPlayer& a, const ArenaPlayer& b, rules::RuleSet rules,
                          int size, const ArenaConfig& config) {
  if (!rules::IsSupportedSize(size)) {
    return "board size " + std::to_string(size) + " is not supported (7, 9 or 10)";
  }
  if (rules != rules::RuleSet::kStandard && rules != rules::RuleSet::kClassic) {
    return "unknown rule set";
  }
  for (const ArenaPlayer* p : {&a, &b}) {
    const std::string who = p == &a ? "player A" : "player B";
    if (p->name.empty()) return who + " has no name";
    // Names become file names and JSON strings, specs JSON strings (match records).
    if (std::string bad = util::ValidateName(p->name, who + " name"); !bad.empty()) return bad;
    if (util::Status utf8 = util::CheckUtf8Path(p->spec.checkpoint, who + " checkpoint");
        !utf8.ok()) {
      return utf8.error();
    }
    switch (p->spec.kind) {
      case PlayerKind::kRandom:
        break;
      case PlayerKind::kUct:
        if (p->spec.budget < 1 || p->spec.budget > kMaxUctPlayouts) {
          return who + " (" + p->name + "): playouts must be in [1, " +
                 std::to_string(kMaxUctPlayouts) + "]";
        }
        break;
      case PlayerKind::kMcts:
        if (p->evaluator == nullptr) return who + " (" + p->name + "): no evaluator";
        if (p->spec.budget < 1 || p->spec.budget > kMaxMctsSimulations) {
          return who + " (" + p->name + "): simulations must be in [1, " +
                 std::to_string(kMaxMctsSimulations) + "]";
        }
        if (p->search.leaves_per_batch < 1) {
          return who + " (" + p->name + "): leaves_per_batch must be >= 1";
        }
        break;
    }
  }
  if (a.name == b.name) return "both players are named \"" + a.name + "\"";
  if (util::Status valid = config.Validate(); !valid) return valid.error();
  return "";
}

uint64_t ArenaPlayerSeed(uint64_t seed, int game, int side) {
  return util::SplitMix64(util::SplitMix64(seed ^ 0x5EA7ED0A12E4A000ULL) +
                          2 * static_cast<uint64_t>(game) + static_cast<uint64_t>(side));
}

// --- OpeningBook ---

OpeningBook::OpeningBook(rules::RuleSet rules, int size, int opening_turns, uint64_t seed)
    : rules_(rules),
      size_(size),
      turns_(opening_turns),
      rng_(util::SplitMix64(seed ^ 0x0BE11B00C0FFEEULL)) {}

const std::vector<rules::Turn>& OpeningBook::Get(int pair) {
  while (static_cast<int>(openings_.size()) <= pair) DrawNext();
  return openings_[pair];
}

void OpeningBook::DrawNext() {
  if (turns_ == 0) {
    openings_.emplace_back();
    return;
  }
  std::vector<rules::Turn> turns;
  for (int depth = turns_; depth <= turns_ + kMaxExtraOpeningTurns; ++depth) {
    for (int attempt = 0; attempt < kOpeningAttempts; ++attempt) {
      rules::Position p = rules::Position::Initial(rules_, size_);
      turns.clear();
      for (int t = 0; t < depth && !p.IsTerminal(); ++t) {
        turns.push_back(rules::RandomTurn(p, rng_));
        rules::ApplyTurn(p, turns.back());
      }
      if (p.IsTerminal()) continue;
      const uint64_t key = CanonicalKey(p);
      const auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
      if (it != keys_.end() && *it == key) continue;
      keys_.insert(it, key);
      openings_.push_back(turns);
      return;
    }
  }
  openings_.push_back(turns);  // practically unreachable: accept a repeat
}

// --- Games in flight ---

struct Arena::Slot {
  enum class State { kIdle, kSync, kSearch };
  int index = 0;
  bool a_first = true;
  rules::Position pos;
  rules::Position turn_start;  // where the neural turn in progress began
  rules::Turn partial;         // its actions so far
  std::string record;
  int turns = 0;
  std::unique_ptr<search::Player> sync[2];  // random / UCT sides
  std::unique_ptr<search::Mcts> mcts[2];    // neural sides
  search::Evaluator* evaluator[2] = {nullptr, nullptr};
  State state = State::kIdle;
  int side = 0;  // side to move (0 = A, 1 = B) while kSync / kSearch
  rules::Turn sync_turn;

  // The side (0 = A, 1 = B) of the player to move.
  int SideToMove() const { return (pos.ToMovePlayer() == 0) == a_first ? 0 : 1; }
  void AddTurn(const rules::Position& before, const rules::Turn& turn) {
    if (!record.empty()) record += ' ';
    record += rules::TurnToString(before, turn);
    ++turns;
  }
};

// Worker threads choosing the turns of UCT players.
class Arena::Workers {
 public:
  explicit Workers(int n) {
    for (int i = 0; i < n; ++i) threads_.emplace_back([this] { Loop(); });
  }
  ~Workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void Submit(Slot* slot) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(slot);
    }
    work_cv_.notify_one();
  }
  // Moves the finished slots into `out`; with `wait`, first waits for at least one.
  // Rethrows an exception a player threw.
  void TakeDone(std::vector<Slot*>& out, bool wait) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wait) done_cv_.wait(lock, [&] { return !done_.empty() || error_; });
    if (error_) std::rethrow_exception(error_);
    out.insert(out.end(), done_.begin(), done_.end());
    done_.clear();
  }

 private:
  void Loop() {
    for (;;) {
      Slot* slot = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        slot = queue_.front();
        queue_.pop_front();
      }
      std::exception_ptr error;
      try {
        slot->sync_turn = slot->sync[slot->side]->ChooseTurn(slot->pos).turn;
      } catch (...) {
        error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error && !error_) error_ = error;
        done_.push_back(slot);
      }
      done_cv_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Slot*> queue_;
  std::vector<Slot*> done_;
  std::exception_ptr error_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

Arena::Arena(ArenaPlayer a, ArenaPlayer b, rules::RuleSet rules, int size,
             const ArenaConfig& config)
    : a_(std::move(a)),
      b_(std::move(b)),
      rules_(rules),
      size_(size),
      config_(config),
      openings_(rules, size, config.opening_turns, config.seed),
      created_(Now()) {}

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

std::vector<ArenaGame> Arena::Run(const std::vector<int>& indices, int total, int a_wins,
                                  int b_wins, const ArenaProgressFn& progress,
                                  const std::function<void(const ArenaGame&)>& on_game) {
  const double start = Now();
  size_t next = 0;  // position in `indices`
  const size_t end = indices.size();
  std::vector<ArenaGame> finished;

  // Distinct evaluators, A's first: one Evaluate call per evaluator and round.
  std::vector<search::Evaluator*> evaluators;
  for (const ArenaPlayer* p : {&a_, &b_}) {
    if (p->spec.kind == PlayerKind::kMcts &&
        std::find(evaluators.begin(), evaluators.end(), p->evaluator) == evaluators.end()) {
      evaluators.push_back(p->evaluator);
    }
  }

  // Declared before the workers, so that the workers are joined before slots go away.
  std::vector<std::unique_ptr<Slot>> active;
  std::unique_ptr<Workers> workers;
  if (a_.spec.kind == PlayerKind::kUct || b_.spec.kind == PlayerKind::kUct) {
    workers = std::make_unique<Workers>(config_.threads);
  }
  int sync_pending = 0;
  std::vector<search::Mcts*> searches;
  search::BatchBuffers buffers;
  std::vector<Slot*> done;

  while ((next < end || !active.empty()) && !(stop_ != nullptr && stop_->load())) {
    while (static_cast<int>(active.size()) < config_.games_in_parallel && next < end) {
      const auto restored = restored_.find(indices[next]);
      if (restored == restored_.end()) {
        active.push_back(StartGame(indices[next++]));
        continue;
      }
      finished.push_back(restored->second);
      restored_.erase(restored);
      ++next;
      (finished.back().a_won ? a_wins : b_wins)++;
      if (progress) progress({a_wins + b_wins, total, a_wins, b_wins, Now() - created_});
    }
    // Idle games: random players move at once, UCT players go to the workers, neural
    // players start a search for the pending sub-decision.
    for (auto& s : active) {
      while (s->state == Slot::State::kIdle && !s->pos.IsTerminal()) {
        s->side = s->SideToMove();
        if (s->mcts[s->side]) {
          s->turn_start = s->pos;
          s->partial = rules::Turn{};
          s->mcts[s->side]->SetPosition(s->pos);
          ContinueTurn(*s);
        } else if (workers && (s->side == 0 ? a_ : b_).spec.kind == PlayerKind::kUct) {
          s->state = Slot::State::kSync;
          ++sync_pending;
          workers->Submit(s.get());
        } else {
          const rules::Position before = s->pos;
          const rules::Turn t = s->sync[s->side]->ChooseTurn(s->pos).turn;
          rules::ApplyTurn(s->pos, t);
          s->AddTurn(before, t);
          ++stats_.turns;
        }
      }
    }
    // Finished games leave; their slots are refilled in the next iteration.
    for (size_t i = 0; i < active.size();) {
      Slot& s = *active[i];
      if (s.state != Slot::State::kIdle || !s.pos.IsTerminal()) {
        ++i;
        continue;
      }
      finished.push_back(FinishGame(s));
      (finished.back().a_won ? a_wins : b_wins)++;
      active.erase(active.begin() + static_cast<long>(i));
      if (on_game) on_game(finished.back());
      if (progress) {
        progress({a_wins + b_wins, total, a_wins, b_wins, Now() - created_});
      }
    }
    // One round of the neural searches: one batched step per model (each search collects
    // its own config's leaves_per_batch).
    bool searching = false;
    for (search::Evaluator* ev : evaluators) {
      searches.clear();
      for (auto& s : active) {
        if (s->state == Slot::State::kSearch && s->evaluator[s->side] == ev) {
          searches.push_back(s->mcts[s->side].get());
        }
      }
      if (searches.empty()) continue;
      searching = true;
      const size_t evaluated = search::StepSearchesBatched(searches, *ev, 0, buffers);
      stats_.evaluations += evaluated;
      if (evaluated > 0) ++stats_.evaluate_calls;
    }
    // Searches that finished play their action; a search starts for the next sub-decision
    // of the same turn, or the turn is complete.
    for (auto& s : active) {
      if (s->state != Slot::State::kSearch) continue;
      search::Mcts& m = *s->mcts[s->side];
      if (!m.Finished()) continue;
      PlayNeuralAction(*s, m.Result().action);
      ContinueTurn(*s);
    }
    // UCT turns: wait for one only when there is nothing else to do.
    if (sync_pending > 0) {
      done.clear();
      workers->TakeDone(done, !searching);
      for (Slot* s : done) {
        const rules::Position before = s->pos;
        rules::ApplyTurn(s->pos, s->sync_turn);
        s->AddTurn(before, s->sync_turn);
        ++stats_.turns;
        s->state = Slot::State::kIdle;
        --sync_pending;
      }
    }
  }
  std::sort(finished.begin(), finished.end(),
            [](const ArenaGame& x, const ArenaGame& y) { return x.index < y.index; });
  stats_.seconds += Now() - start;
  return finished;
}

}  // namespace veletas::arena
