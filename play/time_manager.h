// Time controls for the engine protocol (docs/ENGINE_PROTOCOL.md, "Time controls"): how
// long one move may search given the player's clock (time left, increment per move, moves
// to the next time control). Pure arithmetic, so it is tested without a clock.
#pragma once

#include <cstdint>

namespace veletas::play {

// The clock of the player to move, as a GUI sends it (UCI's wtime/winc/movestogo).
struct GameClock {
  int64_t remaining_ms = 0;  // time left on the player's clock before this move
  int64_t increment_ms = 0;  // added to the clock after each move (Fischer)
  int moves_to_go = 0;       // moves until the next time control; 0 = sudden death
};

// How the time manager spends a clock.
struct TimeManagerSettings {
  // Kept back on every move for what the search cannot stop within: the last search chunk
  // after the deadline, answering, and the GUI's transport. A move never gets more than
  // remaining_ms - reserve_ms (at least 1 ms).
  int64_t reserve_ms = 50;
  // The moves the rest of a sudden-death game is assumed to take (of this player's).
  int expected_moves = 20;
  // A move gets at most this share of the time left (after the reserve), unless it is the
  // last move before the time control.
  double max_share = 0.4;
};

// The search time of one move for `clock`: (remaining - reserve) / moves left, plus most of
// the increment, capped by max_share of (remaining - reserve) and never more than
// remaining - reserve; at least 1 ms (a move must search for something). Precondition:
// remaining_ms, increment_ms, moves_to_go >= 0.
int64_t MoveTimeMs(const GameClock& clock, const TimeManagerSettings& settings = {});

}  // namespace veletas::play
