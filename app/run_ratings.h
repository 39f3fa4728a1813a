// Rating a run: the Bradley-Terry ladder of every player from the run's match records
// (RUN_DIR/matches/*.json, random fixed at Elo 0), written to RUN_DIR/ratings.json and
// RUN_DIR/ratings.png. Used by `veletas ratings`, `veletas pipeline` and `veletas report`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "arena/ratings.h"
#include "charts/plot.h"
#include "util/result.h"

namespace veletas::app {

struct RunRatings {
  arena::Ladder ladder;
  nlohmann::json json;               // what ratings.json holds
  size_t matches = 0;                // match records rated
  std::vector<std::string> skipped;  // "<file>: <why>" for unreadable match records
  std::string json_path;
  std::string png_path;
};

// Rates every match of `run_dir` and writes ratings.json and ratings.png there. Warnings
// (skipped files, a name used with two specs) go to `warnings`. Errors: bad input (no run
// directory, no readable match, matches of different games) or a failure (the ladder cannot
// be computed, a failed write), as the error's kind says.
util::Result<RunRatings> RateRun(const std::string& run_dir, double prior_games,
                                 std::ostream& warnings);

// The ladder as a table: player, Elo, 95% CI, games, score.
void PrintLadderTable(const arena::Ladder& ladder, std::ostream& out);

// Elo against generation for players named gen_<N> (with 95% intervals); every other rated
// player is a dashed reference line (random at 0 in grey).
charts::Chart RatingsChart(const arena::Ladder& ladder);

}  // namespace veletas::app
