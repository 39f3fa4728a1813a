// Sections `search` (search::SearchConfig) and `evaluator` (search::BatchingConfig): the keys,
// ranges and help are the structs' tables (search/search_config.cpp).
#include "config/config.h"

namespace veletas::config {

void ParseSearchSection(ConfigSection& s, search::SearchConfig& out) { ReadSection(s, out); }

void ParseEvaluatorSection(ConfigSection& s, search::BatchingConfig& out) { ReadSection(s, out); }

}  // namespace veletas::config
