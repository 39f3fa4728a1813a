// Rating a run: the Bradley-Terry ladder of every player from the run's match records
// (RUN_DIR/matches/*.json, random fixed at Elo 0), written to RUN_DIR/ratings.json, and the
// ladder's tables as the commands print them. Used by `veletas ratings`, `ladder`, `report`
// and the pipeline (which draws RUN_DIR/ratings.png from ratings.json, charts/charts.h).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "arena/ladder.h"
#include "arena/ratings.h"
#include "util/result.h"

namespace veletas::arena {

struct RunRatings {
  Ladder ladder;
  nlohmann::json json;               // what ratings.json holds
  size_t matches = 0;                // match records rated
  std::vector<std::string> skipped;  // "<file>: <why>" for unreadable match records
  std::string json_path;             // RUN_DIR/ratings.json
  std::string png_path;              // RUN_DIR/ratings.png (drawn by the caller)
};

// Rates every match of `run_dir` and writes ratings.json there (not the chart). Warnings
// (skipped files, a name used with two specs) go to `warnings`. Errors: bad input (no run
// directory, no readable match, matches of different games) or a failure (the ladder cannot
// be computed, a failed write), as the error's kind says.
util::Result<RunRatings> RateRun(const std::string& run_dir, double prior_games,
                                 std::ostream& warnings);

// The ladder as a table: player, Elo, 95% CI, games, score.
void PrintLadderTable(const Ladder& ladder, std::ostream& out);

// The ratings of a run as `veletas ratings` prints them: the matches rated (and files
// skipped), the model and its prior of `prior_games` virtual games per pair, the ladder
// table, and a note when a player is unrated.
void PrintRatings(const RunRatings& r, double prior_games, std::ostream& out);

// A ladder round (RunLadderRound) as `veletas ladder` prints it: one line per match, then
// the run's ladder and a hint to rate `run_dir`; with `json`, one JSON object instead.
void PrintLadderRound(const LadderRoundResult& round, const std::string& run_dir, bool json,
                      std::ostream& out);

}  // namespace veletas::arena
