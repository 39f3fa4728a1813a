// The no-network baseline most game sites ship: UCT with uniformly random playouts.
//
// Design (chosen for strength per playout): the tree is over sub-decisions (choose shooter,
// destination, shot; setup placements), not full turns. A full turn has hundreds (7x7) to
// thousands (10x10) of alternatives, far more than a move's playout budget, while each
// sub-decision has a few dozen, so statistics are shared between the turns that start
// alike. Measured on 7x7 (standard rules, games alternating sides, against this player at
// 1000 playouts per turn): flat UCB1 over full turns with the same playouts won 14/40
// (c = 1), 12/40 (c = 0.5), 4/40 (c = 2); at 4000 playouts 7/30. c_uct = 1 was as good as
// 1.2 and 1.4 (33/80, 36/80 against it) and better than 0.4, 0.7 and 2 (6/40, 15/40,
// 15/40). Selection is UCB1 (Q + c * sqrt(ln N / n), unvisited children first in a random
// order) with the MCTS-solver (proven wins taken, proven losses avoided). Leaves are valued
// by one random playout (random full turns to the end of the game). Root parallelism: each
// thread grows its own tree with its own seed; the root statistics are merged (visits
// summed, Q weighted by visits) and the most visited action is played.
//
// Budget: `playouts` new playouts per full turn, summed over threads: half for the first
// sub-decision and, for each later one, half of what is left, the last sub-decision of the
// turn (shot, setup stone, or a lone action) taking all of it. Trees are kept across
// sub-decisions and turns.
#pragma once

#include <memory>
#include <vector>

#include "search/mcts.h"
#include "search/player.h"
#include "search/rollout_evaluator.h"
#include "search/search_config.h"

namespace veletas::search {

// The UCB1 exploration constant of the UCT anchors (`uct:N`) on a board of side `size`,
// chosen by round robins (docs/RATINGS.md, "Anchors"). Pure.
float TunedUctC(int size);

// The tree settings of the UCT player: UCB1 with exploration `c_uct`, one leaf per batch,
// no noise, greedy choice, tree reuse and the solver.
SearchConfig UctTreeConfig(float c_uct);

class UctPlayer : public Player {
 public:
  // Preconditions: config.playouts >= 1, config.threads >= 1.
  UctPlayer(const UctConfig& config, uint64_t seed);
  std::string Name() const override;
  TurnChoice ChooseTurn(const rules::Position& pos) override;
  void NewGame() override;
  void Seed(uint64_t seed) override;
  // Playouts run so far (all threads).
  uint64_t Playouts() const;

 private:
  // Searches `playouts` more (split over the threads) from every tree's root.
  void SearchAll(int playouts);

  UctConfig config_;
  std::vector<std::unique_ptr<Mcts>> trees_;
  std::vector<std::unique_ptr<RolloutEvaluator>> rollouts_;
  std::vector<SearchResult> results_;
};

}  // namespace veletas::search
