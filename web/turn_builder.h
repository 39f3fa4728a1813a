// A full turn built from clicks, for the browser page: the sub-decision structure of the
// rules core, with one convenience for people. Setup shooters may be clicked in any order:
// the rules place the shooters of a setup turn in notation order, so the builder keeps the
// clicked set, offers the squares that extend it to some legal setup, and plays the set
// sorted once it is complete; a clicked shooter is taken back by clicking it again. Every
// check is the rules core's (Position::LegalActions along placement paths).
#pragma once

#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "util/result.h"

namespace veletas::web {

// What the page shows for the turn being built.
struct TurnChoices {
  rules::Decision decision = rules::Decision::kGameOver;  // what a click decides now
  std::vector<int> chosen;   // squares chosen so far in this turn (setup shooters, the shooter
                             // to move and its destination), in the order they were clicked
  std::vector<int> placing;  // setup shooters chosen but not yet on the board of Current()
  std::vector<int> targets;  // squares a click may choose now
  bool pass = false;         // the pass-like action (no move / swap) is available now
};

// Not thread-safe; a plain value.
class TurnBuilder {
 public:
  // Builds a turn from `start`. Precondition: rules::AtTurnStart(start) and not terminal.
  explicit TurnBuilder(const rules::Position& start);

  // Chooses `action` (a square, or the pass slot N*N) for the current decision; clicking a
  // chosen setup shooter (or the shooter chosen to move) takes it back. Returns whether the
  // turn is complete now, or an error naming why the square cannot be chosen (nothing
  // changes then).
  util::Result<bool> Choose(rules::Action action);
  // True once the clicks make a full turn (then Turn() is it).
  bool Complete() const { return complete_; }
  // The full turn. Precondition: Complete().
  const rules::Turn& Turn() const { return turn_; }
  // What the next click decides and which squares it may choose (empty when complete).
  TurnChoices Choices() const;
  // The position after the sub-decisions played so far: the start while setup shooters are
  // being chosen (they are played, sorted, once the set is complete).
  const rules::Position& Current() const { return current_; }

 private:
  // Setup: true when some legal setup of this turn places every square of `squares`.
  bool Extendable(const std::vector<int>& squares) const;
  // The number of setup shooters the player to move places in this turn.
  int SetupShare() const;
  bool SetupShooterPhase() const;
  void Rebuild();

  rules::Position start_;
  rules::Position current_;
  std::vector<int> setup_;   // setup shooters clicked (in click order)
  std::vector<int> play_;    // play-phase actions, in order
  bool setup_done_ = false;  // the set of setup shooters is complete (played sorted)
  rules::Turn turn_;
  bool complete_ = false;
};

}  // namespace veletas::web
