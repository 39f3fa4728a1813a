// The words of a match for people: the text of its progress line.
#pragma once

#include <string>

#include "arena/arena.h"

namespace veletas::arena {

// "3/10 games, gen_4 2 - 1 gen_3, 0.50 games/s": games done of the total, the wins of each
// side between the names `a` and `b` ("" for none) and the speed so far.
std::string ProgressText(const ArenaProgress& p, const std::string& a = "",
                         const std::string& b = "");

}  // namespace veletas::arena
