// Section `selfplay` (selfplay::SelfplayConfig): the keys, ranges and help are the struct's
// table (selfplay/selfplay_config.cpp).
#include "config/config.h"

namespace veletas::config {

void ParseSelfplaySection(ConfigSection& s, selfplay::SelfplayConfig& out) { ReadSection(s, out); }

}  // namespace veletas::config
