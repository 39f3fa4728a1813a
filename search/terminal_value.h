// The value of a finished game for the search: what a terminal node holds (search/mcts.h)
// and what the spot check (selfplay/spot_check.h) expects where a visited action ends the
// game. One definition, so that both agree exactly.
#pragma once

#include "rules/position.h"

namespace veletas::search {

// The exact result of a finished game for the player to move there: +1 if that player
// holds the winning colour, -1 otherwise. Precondition: pos.IsTerminal().
inline float TerminalValue(const rules::Position& pos) {
  return pos.Winner() == pos.ToMove() ? 1.0f : -1.0f;
}

}  // namespace veletas::search
