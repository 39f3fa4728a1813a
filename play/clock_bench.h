// The time controls' benchmark (`veletas bench clock`): the engine plays moves against
// itself through the protocol's genmove with both clocks (wtime/btime/winc/binc), the real
// time of every move measured; says whether any move took longer than its clock held.
#pragma once

#include <cstdint>

#include "play/engine_protocol.h"

namespace veletas::play {

struct ClockBenchOptions {
  int moves = 100;             // genmoves measured (new games start as games end)
  int64_t clock_ms = 10000;    // each side's clock at the start of a game
  int64_t increment_ms = 100;  // added after each move
};

struct ClockBenchResult {
  int moves = 0;
  int games = 0;                      // games started
  int over_time = 0;                  // moves that took longer than the mover's clock held
  double max_share = 0.0;             // the largest move time / the clock before it
  double max_over_allotted_ms = 0.0;  // the most a move took beyond the time manager's allotment
  double mean_move_ms = 0.0;
  int64_t min_left_ms = 0;  // the lowest clock after a move
};

// Plays opts.moves genmoves on `engine` from a new game, keeping both clocks with the real
// time each genmove took. The engine's game is replaced.
ClockBenchResult RunClockBench(EngineProtocol& engine, const ClockBenchOptions& opts);

}  // namespace veletas::play
