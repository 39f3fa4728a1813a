// Full-turn search for the interactive commands (play, engine, analyse): one MCTS tree over
// the sub-decisions of a turn, driven like search::MakeMctsPlayer / MakeUctPlayer but with a
// simulation or wall-clock budget, and reporting what a user wants to see: the chosen turn,
// its win rate, the best alternatives and their principal variations in full turns.
//
// Budgets. A turn is one search per sub-decision (a play turn has up to three: shooter,
// destination, shot). With `visits` set, a network searcher runs that many new simulations
// for every sub-decision (the meaning of search.simulations and of MakeMctsPlayer), and a
// UCT searcher spends that many playouts on the whole turn (as MakeUctPlayer: half for the
// first sub-decision, half of the rest for each later one, the last one taking what is
// left). With `time_ms` set, the turn's time is split the same way as UCT's playouts and
// each sub-decision searches in chunks until its share of the time is spent (or its root is
// proven won or lost); every sub-decision gets at least one chunk. (With the Gumbel root,
// each chunk is its own sequential halving: prefer visit budgets there.)
//
// Stepped use (an evaluator that answers asynchronously, e.g. the browser's network in a
// worker): Begin(pos, budget, n), then CollectLeaves / evaluate / ProvideEvaluations until
// Done(), then Analysis(). Search() is that loop with the searcher's own evaluator, so both
// give the same turn for the same evaluations.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "search/evaluator.h"
#include "search/mcts.h"
#include "search/rollout_evaluator.h"
#include "search/search_config.h"
#include "util/clock.h"

namespace veletas::play {

// How much to search for one full turn. Exactly one of the two is positive.
struct SearchBudget {
  int visits = 0;   // simulations per sub-decision (network) or playouts per turn (UCT)
  int time_ms = 0;  // wall-clock milliseconds for the whole turn
};

// One full turn with the search's opinion of it.
struct TurnCandidate {
  rules::Turn turn;
  // Estimated probability that the player making the turn wins after it; 1 or 0 when the
  // solver proved it.
  float win_rate = 0.5f;
  uint32_t visits = 0;  // visits of the tree node where the turn ends
  // A lower confidence bound of win_rate: the Wilson score interval's lower end at 95%
  // (z = 1.96) over `visits`; win_rate itself when proven, 0 without visits.
  float lcb = 0.0f;
  int8_t proven = 0;  // +1 proven win, -1 proven loss for the player making the turn
  // The expected continuation in full turns, starting with `turn` (most visited path);
  // may stop early where the tree is thin.
  std::vector<rules::Turn> pv;
};

struct TurnAnalysis {
  // The turn the search chose (as a player would play it) and its estimate.
  TurnCandidate best;
  // `best` first, then the most visited other turns of the first sub-decision's search.
  std::vector<TurnCandidate> candidates;
  int simulations = 0;   // simulations (or playouts) run for this turn
  double seconds = 0.0;  // wall-clock time spent
  // A search stopped before its budget because the tree reached its node budget
  // (search::SearchConfig::max_nodes); `max_nodes` is that budget.
  bool node_limit = false;
  int64_t max_nodes = 0;
};

// Searches full turns with one tree (kept across calls when the positions follow each
// other). Not thread-safe: one thread at a time.
class TurnSearcher {
 public:
  // Neural MCTS with `config` (use search::ForPlay for play); `evaluator` must outlive the
  // searcher or be replaced with SetEvaluator.
  static std::unique_ptr<TurnSearcher> Neural(search::Evaluator& evaluator,
                                              const search::SearchConfig& config, uint64_t seed);
  // UCT with uniformly random playouts (one tree; the tree settings of search::UctPlayer).
  static std::unique_ptr<TurnSearcher> Uct(float c_uct, uint64_t seed);

  // Searches `pos` and returns the chosen turn with up to `max_candidates` candidates
  // (at least the chosen one). Preconditions: !pos.IsTerminal(); a budget with visits > 0
  // or time_ms > 0; max_candidates >= 1.
  TurnAnalysis Search(const rules::Position& pos, const SearchBudget& budget, int max_candidates);

  // Streaming analysis: adds `simulations` simulations to the tree of `pos`'s first
  // sub-decision (keeping what earlier calls for the same position grew) and returns its
  // candidates as far as the tree completes their turns, most visited first (at most
  // `max_candidates`; possibly none while the tree is thin). `best` is the first candidate;
  // `simulations` counts this call's. Nothing is played. Preconditions: those of Search,
  // simulations >= 1.
  TurnAnalysis Grow(const rules::Position& pos, int simulations, int max_candidates);

  // Starts the search of Search(pos, budget, max_candidates) without running it; a search
  // still in progress is abandoned (Abandon). Preconditions: those of Search.
  void Begin(const rules::Position& pos, const SearchBudget& budget, int max_candidates);
  // Appends the positions of up to config.leaves_per_batch leaves to `out` and returns how
  // many; their evaluations must come next (ProvideEvaluations, same order). Returns 0 only
  // when the search is Done. Precondition: Begin was called.
  int CollectLeaves(std::vector<rules::Position>& out);
  // The evaluations of the last CollectLeaves, in its order.
  void ProvideEvaluations(std::span<const search::EvalOutput> outputs);
  // The search begun last is finished; Analysis() holds its result.
  bool Done() const { return done_; }
  // The result of the finished search. Precondition: Done().
  const TurnAnalysis& Analysis() const { return analysis_; }
  // Drops a search in progress and its tree (nothing when none is in progress).
  void Abandon();
  // The evaluator Search uses: the one given to Neural, or a UCT searcher's random
  // playouts (for stepped callers that evaluate some leaves themselves).
  search::Evaluator& OwnEvaluator() { return *evaluator_; }
  // The search settings (leaves_per_batch is the largest batch CollectLeaves gives).
  const search::SearchConfig& Config() const { return mcts_.Config(); }

  // Replaces the evaluator of a neural searcher (e.g. after reloading with another thread
  // count). Precondition: Neural().
  void SetEvaluator(search::Evaluator& evaluator) { evaluator_ = &evaluator; }
  // True for a UCT searcher (visits are playouts per turn).
  bool IsUct() const { return rollouts_ != nullptr; }
  // Forgets the tree.
  void NewGame() {
    mcts_.Clear();
    active_ = false;
  }
  // Sets the tree's node budget (search::SearchConfig::max_nodes; 0 = automatic) for the
  // next searches.
  void SetMaxNodes(int64_t max_nodes);
  // Restarts the random generators.
  void Seed(uint64_t seed);
  // Replaces the clock of time budgets (seconds on any monotonic scale; default
  // util::SteadySeconds), e.g. a fake clock in tests.
  void SetClock(std::function<double()> now) { now_ = std::move(now); }
  // e.g. "puct", "gumbel" or "uct".
  std::string AlgorithmName() const;

 private:
  TurnSearcher(search::Evaluator* evaluator, const search::SearchConfig& config, uint64_t seed,
               bool uct);
  // Starts the search of the current root's sub-decision with its share of the budget.
  void StartSubDecision();
  // The current search (a sub-decision's, or one chunk of a time budget) has finished:
  // starts the next chunk, or plays the chosen action and moves on.
  void FinishSearch();
  // Reads the candidates of the turn's first search from the tree.
  void ReadCandidates(const search::SearchResult& r);
  // The turn is complete: fills in the analysis and marks the search done.
  void FinishTurn();

  search::Evaluator* evaluator_;
  std::unique_ptr<search::RolloutEvaluator> rollouts_;
  search::Mcts mcts_;
  int simulations_ = 0;

  // State of the search begun by Begin.
  SearchBudget budget_;
  int max_candidates_ = 1;
  int start_turn_ = 0;
  int playouts_left_ = 0;
  bool first_ = true;    // searching the turn's first sub-decision
  bool timed_ = false;   // the current sub-decision searches in chunks until deadline_
  bool active_ = false;  // begun and not done
  bool done_ = false;
  std::function<double()> now_ = util::SteadySeconds;
  double start_ = 0.0;  // when the turn's search began (now_())
  double deadline_ = 0.0;
  TurnAnalysis analysis_;
  std::vector<TurnCandidate> alternatives_;
};

// The lower end of the 95% Wilson score interval of a win rate over `visits` trials (0 for
// no visits).
float WinRateLcb(float win_rate, uint32_t visits);

// The turns of `pv` in notation, played from `pos`.
std::vector<std::string> PvMoves(const rules::Position& pos, const std::vector<rules::Turn>& pv);
// The same separated by spaces.
std::string PvToString(const rules::Position& pos, const std::vector<rules::Turn>& pv);

}  // namespace veletas::play
