#include "play/clock_bench.h"

#include <algorithm>
#include <string>

#include "util/clock.h"

namespace veletas::play {

ClockBenchResult RunClockBench(EngineProtocol& engine, const ClockBenchOptions& opts) {
  ClockBenchResult r;
  int64_t clock[2] = {0, 0};  // Black, White
  double total_ms = 0.0;
  r.min_left_ms = opts.clock_ms;
  bool new_game = true;
  for (int i = 0; i < opts.moves; ++i) {
    if (new_game || engine.Game().Current().IsTerminal()) {
      engine.Handle("clear_board");
      clock[0] = clock[1] = opts.clock_ms;
      ++r.games;
      new_game = false;
    }
    const int mover = engine.Game().Current().ToMove() == rules::Color::kBlack ? 0 : 1;
    const GameClock mine{clock[mover], opts.increment_ms, 0};
    const int64_t allotted = MoveTimeMs(mine, engine.TimeManager());
    const std::string inc = std::to_string(opts.increment_ms);
    const std::string command = "genmove wtime " + std::to_string(clock[1]) + " btime " +
                                std::to_string(clock[0]) + " winc " + inc + " binc " + inc;
    const double start = util::SteadySeconds();
    engine.Handle(command);
    const double ms = (util::SteadySeconds() - start) * 1000.0;
    ++r.moves;
    total_ms += ms;
    r.max_share =
        std::max(r.max_share, ms / static_cast<double>(std::max<int64_t>(1, clock[mover])));
    r.max_over_allotted_ms = std::max(r.max_over_allotted_ms, ms - static_cast<double>(allotted));
    if (ms > static_cast<double>(clock[mover])) {
      ++r.over_time;
      new_game = true;  // lost on time: the next move starts a new game
      continue;
    }
    clock[mover] = clock[mover] - static_cast<int64_t>(ms + 0.999) + opts.increment_ms;
    r.min_left_ms = std::min(r.min_left_ms, clock[mover] - opts.increment_ms);
  }
  r.mean_move_ms = r.moves > 0 ? total_ms / r.moves : 0.0;
  return r;
}

}  // namespace veletas::play
