// Section `arena` (arena::ArenaSettings) with the nested mappings `gate` (the promotion gate)
// and `ladder` (the rating-ladder rounds). Keys and defaults are listed in docs/ARENA.md; the
// keys, ranges and help are the structs' tables (arena/arena_settings.cpp).
#include "config/config.h"

namespace veletas::config {

void ParseArenaSection(ConfigSection& s, arena::ArenaSettings& out) { ReadSection(s, out); }

}  // namespace veletas::config
