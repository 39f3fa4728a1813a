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
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "search/evaluator.h"
#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "search/search_config.h"

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
  int8_t proven = 0;    // +1 proven win, -1 proven loss for the player making the turn
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

  // Replaces the evaluator of a neural searcher (e.g. after reloading with another thread
  // count). Precondition: Neural().
  void SetEvaluator(search::Evaluator& evaluator) { evaluator_ = &evaluator; }
  // True for a UCT searcher (visits are playouts per turn).
  bool IsUct() const { return rollouts_ != nullptr; }
  // Forgets the tree.
  void NewGame() { mcts_.Clear(); }
  // Restarts the random generators.
  void Seed(uint64_t seed);
  // e.g. "puct", "gumbel" or "uct".
  std::string AlgorithmName() const;

 private:
  TurnSearcher(search::Evaluator* evaluator, const search::SearchConfig& config, uint64_t seed,
               bool uct);
  // Runs the search of the current root for one sub-decision. Returns its result.
  search::SearchResult SearchRoot(int visits, double seconds);

  search::Evaluator* evaluator_;
  std::unique_ptr<search::RolloutEvaluator> rollouts_;
  search::Mcts mcts_;
  int simulations_ = 0;
};

// The turns of `pv` in notation, separated by spaces, played from `pos`.
std::string PvToString(const rules::Position& pos, const std::vector<rules::Turn>& pv);

}  // namespace veletas::play
