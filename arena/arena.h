// The arena: plays games between two players (random, UCT-rollout or neural MCTS) to
// measure their difference in strength. Torch-free: neural players come with a
// search::Evaluator (the model layer's, or a fake one in tests).
//
// Seats: in game g, A is the first player (sets up first) when g is even and the second
// player when g is odd; with the standard rules' pie rule the colour each player ends with
// is recorded separately.
//
// Openings: games come in pairs (2p, 2p+1) that share an opening of
// ArenaConfig::opening_turns full turns drawn uniformly at random (rules::RandomTurn), with
// the seats swapped. With the default of one turn that is the first player's setup
// placement; the second player's pie decision (or, in classic rules, its setup) is its own.
// Whatever advantage an opening gives a seat, each player has it once per pair, so the
// openings favour neither player. Openings are drawn without repetition up to the board's
// symmetries; when a drawn opening repeats an earlier one (small boards have few), another
// is drawn, and after 64 repeats in a row the pair's opening gets one more random turn.
//
// Parallel games with batched evaluation: up to games_in_parallel games are in flight. The
// searches of all neural players whose turn it is are stepped together (search/mcts.h step
// API); each round collects their leaves (config leaves_per_batch per search) and evaluates
// them with one Evaluate call per distinct evaluator (A and B sharing an evaluator share the
// call). UCT players choose on threads of their own meanwhile; random players choose at once.
//
// Determinism: a game depends only on the seed, its index and the evaluators' outputs (not
// on how many games run in parallel or how threads are scheduled), as long as the
// evaluators are deterministic functions of the position.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arena/arena_settings.h"
#include "arena/elo.h"
#include "arena/opening_book.h"
#include "arena/player_spec.h"
#include "rules/position.h"
#include "rules/turns.h"
#include "search/evaluator.h"
#include "search/player.h"
#include "search/search_config.h"
#include "util/random.h"

namespace veletas::arena {

// Makes a timed player for one game, seeded with `seed` (ArenaPlayerSeed). The player searches
// on the thread that calls ChooseTurn only and reports TurnChoice::simulations. Called on the
// thread that runs Arena::Play.
using TimedPlayerFactory = std::function<std::unique_ptr<search::Player>(uint64_t seed)>;

// One side of a match.
struct ArenaPlayer {
  std::string name;  // ladder name, e.g. "gen_3", "uct_1000", "random"
  PlayerSpec spec;   // what plays; spec.budget is the UCT playouts or MCTS simulations
  // kMcts: the model's evaluator. The arena calls it only from the thread that runs
  // Arena::Play (thread-safe evaluators such as search::BatchingEvaluator may also be
  // used elsewhere meanwhile). Must outlive the Arena.
  search::Evaluator* evaluator = nullptr;
  // kMcts: search settings; the arena plays with search::ForPlay(search) and
  // simulations = spec.budget.
  search::SearchConfig search;
  // spec.Timed(): makes the player of each game (for kMcts it brings its own evaluator;
  // `evaluator` is then only the proof that the checkpoint loads).
  TimedPlayerFactory timed;
};

// A neural player named gen_<generation> with spec mcts:<checkpoint>:<simulations>.
ArenaPlayer MakeGenerationPlayer(long long generation, const std::string& checkpoint,
                                 search::Evaluator& evaluator, const search::SearchConfig& search,
                                 int simulations);
// A random or UCT player from its spec, named DefaultPlayerName(spec). Precondition:
// spec.kind is not kMcts.
ArenaPlayer MakeBaselinePlayer(const PlayerSpec& spec);

// OK when the match can be played, else a bad-input error saying what is wrong (names empty, equal
// or not valid as file names (util::ValidateName), a checkpoint path that is not UTF-8, an MCTS
// player without an evaluator, budgets, the config's ranges: games_in_parallel >= 1, threads >= 1,
// opening_turns in [0, 20], size and rules supported; a timed player without its factory, or
// games_in_parallel above threads in a match with a timed player).
util::Status ValidateArena(const ArenaPlayer& a, const ArenaPlayer& b, rules::RuleSet rules,
                           int size, const ArenaConfig& config);

// One finished game, from A's point of view.
struct ArenaGame {
  int index = 0;                                 // game number within the match, from 0
  bool a_first = true;                           // A was the first player (index even)
  rules::Color a_colour = rules::Color::kBlack;  // colour A played (after any swap)
  bool a_won = false;
  int turns = 0;       // full turns, opening included
  std::string record;  // the whole game in notation (rules/notation.h)
  // The cluster worker that played it (set by the learner from the stream it came in on,
  // cluster/learner/remote_arena.h); empty: played in this process.
  std::string worker;
};

// Progress, reported after each finished game.
struct ArenaProgress {
  int games_done = 0;   // in this match so far
  int games_total = 0;  // games_done + the games still to play in this Play call
  int a_wins = 0;
  int b_wins = 0;
  double seconds = 0;  // since the Arena was created
};
using ArenaProgressFn = std::function<void(const ArenaProgress&)>;

// Counters for speed reports.
struct ArenaStats {
  uint64_t evaluations = 0;     // positions sent to evaluators
  uint64_t evaluate_calls = 0;  // Evaluate calls (one per model and round)
  uint64_t turns = 0;           // full turns played (openings included)
  double seconds = 0;           // time spent in Play
  // Timed players, by side (0 = A, 1 = B): turns they chose and the simulations (playouts for
  // UCT) their searches ran for them.
  uint64_t timed_turns[2] = {0, 0};
  uint64_t timed_simulations[2] = {0, 0};
  double MeanBatch() const {
    return evaluate_calls == 0 ? 0.0 : static_cast<double>(evaluations) / evaluate_calls;
  }
  // Mean simulations per turn of side `side`'s timed player (0 without timed turns).
  double MeanTimedSimulations(int side) const {
    return timed_turns[side] == 0
               ? 0.0
               : static_cast<double>(timed_simulations[side]) / timed_turns[side];
  }
};

// The seed of side `side` (0 = A, 1 = B) of game `game`: players are seeded per game, so
// a game does not depend on the others.
uint64_t ArenaPlayerSeed(uint64_t seed, int game, int side);

// A match in progress: games are appended by Play, in index order.
class Arena {
 public:
  // Precondition: ValidateArena(a, b, rules, size, config) is OK.
  Arena(ArenaPlayer a, ArenaPlayer b, rules::RuleSet rules, int size, const ArenaConfig& config);
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Plays the next `count` games (indices GamesPlayed() .. GamesPlayed() + count - 1) and
  // appends them to Games(). Calls `on_game` with each newly played game as it finishes
  // (in finishing order) and then `progress`, both on this thread. Restored games in the
  // range are taken instead of being played (no on_game call). Rethrows an exception of an
  // evaluator. Not thread-safe: one Play at a time.
  void Play(int count, const ArenaProgressFn& progress = {},
            const std::function<void(const ArenaGame&)>& on_game = {});

  // Plays the games of `indices` (distinct, >= 0) as Play would play them, for a cluster
  // worker that was given some games of a match: returns them in index order without
  // adding them to Games(); `on_game` as in Play. Rethrows an exception of an evaluator. Not
  // thread-safe.
  std::vector<ArenaGame> PlayGames(const std::vector<int>& indices,
                                   const std::function<void(const ArenaGame&)>& on_game = {});

  // When *stop turns true, Play and PlayGames return at their next round with the games
  // finished so far (the others are abandoned). Null: never.
  void SetStop(const std::atomic<bool>* stop) { stop_ = stop; }

  // Games of this match finished by an earlier, interrupted run (arena_journal.h): Play
  // takes them when it reaches their indices. Precondition: they were played with the same
  // players, seed and opening turns; indices >= GamesPlayed() and distinct.
  void Restore(const std::vector<ArenaGame>& games);

  const std::vector<ArenaGame>& Games() const { return games_; }
  int GamesPlayed() const { return static_cast<int>(games_.size()); }
  int AWins() const;
  int BWins() const { return GamesPlayed() - AWins(); }
  // A minus B from the games so far.
  EloEstimate Elo() const { return EstimateElo(AWins(), BWins()); }
  const ArenaStats& Stats() const { return stats_; }
  const ArenaPlayer& A() const { return a_; }
  const ArenaPlayer& B() const { return b_; }
  rules::RuleSet Rules() const { return rules_; }
  int Size() const { return size_; }
  // The opening of pair `pair` (draws it if needed).
  const std::vector<rules::Turn>& Opening(int pair) { return openings_.Get(pair); }

 private:
  struct Slot;       // a game in flight (arena/arena_slot.h)
  class UctThreads;  // the threads of UCT players (arena/arena_slot.h)
  struct Round;      // the state of one Run call (arena.cpp)
  // Plays (or takes from restored_) the games of `indices` and returns them in index order;
  // progress counts from the given wins up to `total` games.
  std::vector<ArenaGame> Run(const std::vector<int>& indices, int total, int a_wins, int b_wins,
                             const ArenaProgressFn& progress,
                             const std::function<void(const ArenaGame&)>& on_game);
  // The steps of Run's loop, in order.
  void FillSlots(Round& r);        // starts games (or takes restored ones) up to the limit
  void MoveIdleGames(Round& r);    // random moves, UCT turns submitted, neural searches begun
  void RetireFinished(Round& r);   // finished games leave, reported
  bool StepSearches(Round& r);     // one batched step per model; false when none searched
  void AdvanceSearches(Round& r);  // finished searches play their action
  void ApplyUctTurns(Round& r, bool wait);  // the UCT turns chosen meanwhile
  std::unique_ptr<Slot> StartGame(int index);
  ArenaGame FinishGame(const Slot& slot) const;
  // Plays `action` of the neural side to move of `slot` (its tree follows).
  void PlayNeuralAction(Slot& slot, rules::Action action);
  // Goes on with the neural turn of `slot`: plays sub-decisions with one legal action
  // without a search, then starts the search of the next sub-decision, or ends the turn.
  void ContinueTurn(Slot& slot);

  ArenaPlayer a_;
  ArenaPlayer b_;
  rules::RuleSet rules_;
  int size_;
  ArenaConfig config_;
  OpeningBook openings_;
  std::vector<ArenaGame> games_;
  std::map<int, ArenaGame> restored_;  // by index
  ArenaStats stats_;
  double created_ = 0;  // steady clock seconds at construction
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace veletas::arena
