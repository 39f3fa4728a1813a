#include "arena/match_text.h"

#include <fmt/format.h>

namespace veletas::arena {

std::string ProgressText(const ArenaProgress& p, const std::string& a, const std::string& b) {
  const double rate = p.seconds > 0 ? p.games_done / p.seconds : 0.0;
  return fmt::format("{}/{} games, {}{}{} - {}{}{}, {:.2f} games/s", p.games_done, p.games_total,
                     a, a.empty() ? "" : " ", p.a_wins, p.b_wins, b.empty() ? "" : " ", b, rate);
}

}  // namespace veletas::arena
