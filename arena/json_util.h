// Internal helpers of the arena layer for writing its JSON files (match records, ratings);
// they are read with util::JsonFields (util/json.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "arena/elo.h"

namespace veletas::arena {

// Writes score, elo, elo_ci95 ([low, high], null for an unbounded end), elo_bound and los.
void AddEloFields(nlohmann::json& out, const EloEstimate& e);

// Rounds to `digits` decimals so that files stay readable (e.g. 70.4365 -> 70.44).
double Round(double x, int digits);

}  // namespace veletas::arena
