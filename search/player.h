// Players for the arena and the play modes: something that chooses a full turn for a
// position. Neural MCTS (any Evaluator), UCT with random playouts, and uniformly random.
//
// Many neural games in parallel with batched evaluation (arena, self-play) should not go
// through Player::ChooseTurn (one synchronous search at a time); they drive one Mcts per
// game with the step API (search/mcts.h: StartSearch, CollectLeaves, ProvideEvaluations,
// Result, Advance) or RunSearchesBatched (search/search_driver.h), or give each
// game thread an MctsPlayer over one shared BatchingEvaluator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "search/evaluator.h"
#include "search/mcts.h"
#include "search/search_config.h"

namespace veletas::search {

// One full turn the player considered, with its estimate.
struct TurnAlternative {
  rules::Turn turn;
  float win_rate = 0.0f;  // estimated probability that the player to move wins after it
  uint32_t visits = 0;    // search visits behind the estimate
};

struct TurnChoice {
  rules::Turn turn;
  // Estimated probability in [0, 1] that the player to move wins after `turn`; negative
  // when the player has no estimate (random player).
  float win_rate = -1.0f;
  // The best full turns found, most visited first (the chosen one usually among them);
  // empty when the player has none (random player, or no line in the tree reaches the end
  // of a turn).
  std::vector<TurnAlternative> alternatives;
  // Simulations (playouts for UCT) the search ran for this turn; 0 when the player does not
  // count them.
  int simulations = 0;
};

class Player {
 public:
  virtual ~Player() = default;
  // A short description, e.g. "uct(1000)".
  virtual std::string Name() const = 0;
  // Chooses a legal full turn for `pos`. Precondition: !pos.IsTerminal(). Players may keep
  // trees between calls: pass the positions of one game in order (anything else is still
  // correct, only without tree reuse). Not thread-safe: one thread per player object.
  virtual TurnChoice ChooseTurn(const rules::Position& pos) = 0;
  // Forgets the current game (drops trees); call between games.
  virtual void NewGame() {}
  // Restarts the player's random generator(s): the same seed and positions give the same
  // turns.
  virtual void Seed(uint64_t seed) = 0;
};

// Uniformly random over full turns (rules::RandomTurn).
std::unique_ptr<Player> MakeRandomPlayer(uint64_t seed);

// Neural MCTS: one search of config.simulations simulations per sub-decision of the turn,
// with tree reuse; `evaluator` must outlive the player (share one BatchingEvaluator
// between players on several threads). Use ForPlay(config) for evaluation games.
std::unique_ptr<Player> MakeMctsPlayer(Evaluator& evaluator, const SearchConfig& config,
                                       uint64_t seed);

// UCT over the sub-decision tree with uniformly random playouts (search/uct_player.h).
std::unique_ptr<Player> MakeUctPlayer(const UctConfig& config, uint64_t seed);

// Up to `max` alternatives read from a search tree whose root is at the start of the turn,
// for the root actions of `result` (most visited first). Used by the players.
std::vector<TurnAlternative> TopTurns(const Mcts& mcts, const SearchResult& result, int max);

// The win rate in [0, 1] of a value in [-1, 1].
inline float WinRate(float value) { return 0.5f * (value + 1.0f); }

}  // namespace veletas::search
