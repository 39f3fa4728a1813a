#include "play/time_manager.h"

#include <algorithm>

namespace veletas::play {

int64_t MoveTimeMs(const GameClock& clock, const TimeManagerSettings& settings) {
  const int64_t usable = clock.remaining_ms - settings.reserve_ms;
  if (usable <= 1) return 1;
  const int moves = clock.moves_to_go > 0 ? clock.moves_to_go : settings.expected_moves;
  // Most of the increment: it comes back after the move, but only if the move is in time.
  int64_t share = usable / std::max(1, moves) + clock.increment_ms * 9 / 10;
  if (clock.moves_to_go != 1) {
    share = std::min(share, static_cast<int64_t>(static_cast<double>(usable) * settings.max_share));
  }
  return std::clamp<int64_t>(share, 1, usable);
}

}  // namespace veletas::play
