// Rating a run: the Bradley-Terry ladder of every player from the run's match records
// (RUN_DIR/matches/*.json, random fixed at Elo 0), written to RUN_DIR/ratings.json, and its
// chart RUN_DIR/ratings.png. Used by `veletas ratings`, `veletas pipeline` and `veletas report`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "arena/ratings.h"
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

// Rates every match of `run_dir` and writes ratings.json there (not the chart). Warnings
// (skipped files, a name used with two specs) go to `warnings`. Errors: bad input (no run
// directory, no readable match, matches of different games) or a failure (the ladder cannot
// be computed, a failed write), as the error's kind says.
util::Result<RunRatings> RateRun(const std::string& run_dir, double prior_games,
                                 std::ostream& warnings);

// The ladder as a table: player, Elo, 95% CI, games, score.
void PrintLadderTable(const arena::Ladder& ladder, std::ostream& out);

// Draws ratings.png from the ratings.json that RateRun wrote (charts::DrawRatingsChart). A
// chart that cannot be drawn (no matplotlib) is not an error of the ratings: it returns the
// message to show as a warning, "" when the chart was written.
std::string DrawRatingsPng(const RunRatings& ratings);

}  // namespace veletas::app
