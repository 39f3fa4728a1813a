// Match records: the JSON file a finished arena match writes into its run directory,
// RUN_DIR/matches/<name>.json (format in docs/RATINGS.md), and the reader that loads all
// of a run's matches for the rating ladder and reports. Files are written atomically.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "arena/elo.h"
#include "arena/ratings.h"
#include "arena/sprt.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::arena {

inline constexpr int kMatchFormatVersion = 1;

// A player of a match: the ladder name (unique per player strength, e.g. "gen_3",
// "random", "uct_1000") and the spec it was built from (e.g. "mcts:gen_3:64", "random",
// "uct:1000").
struct MatchPlayer {
  std::string name;
  std::string spec;
};

// One game of a match, from A's point of view.
struct MatchGame {
  bool a_first = true;                   // A was the first player (sets up first)
  std::optional<rules::Color> a_colour;  // the colour A played (after any swap), if known
  bool a_won = false;                    // the winner: A or B (no draws)
  int turns = 0;                         // full turns played
  std::string record;                    // game record file, relative to the run dir ("" = none)
  std::string worker;                    // the cluster worker that played it ("" = the learner)
};

struct MatchRecord {
  std::string name;  // file stem: letters, digits, '_', '-', '.', not starting with '.'
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 10;
  MatchPlayer a;
  MatchPlayer b;
  std::vector<MatchGame> games;
  std::optional<GateEvidence> gate;  // when the match was a promotion gate
  std::string started;               // free text, e.g. ISO 8601 time (optional, "" = none)
  std::string finished;

  int AWins() const;
  int BWins() const { return static_cast<int>(games.size()) - AWins(); }
  // A minus B from these games.
  EloEstimate Elo() const { return EstimateElo(AWins(), BWins()); }
};

// OK when `name` is a valid match name (util::ValidateName), else a bad-input error saying
// why not.
util::Status ValidateMatchName(const std::string& name);

// RUN_DIR/matches and RUN_DIR/matches/<name>.json.
std::string MatchesDir(const std::string& run_dir);
std::string MatchFilePath(const std::string& run_dir, const std::string& name);

// JSON form. The totals (games, a_wins, b_wins) and summary (score, elo, elo_ci95,
// elo_bound, los) are derived from the per-game results when writing; the reader checks
// the totals against the results and ignores the summary (it recomputes it).
nlohmann::json MatchRecordToJson(const MatchRecord& match);
// `source` names the file in error messages. Checks every field.
util::Result<MatchRecord> MatchRecordFromJson(const nlohmann::json& j, const std::string& source);

// Writes the record to MatchFilePath(run_dir, match.name), creating RUN_DIR/matches if
// needed (temporary name, then rename). The error names the file. Thread-safe for
// distinct match names.
util::Status WriteMatchRecord(const std::string& run_dir, const MatchRecord& match);

// Reads and validates one match file; errors name the file.
util::Result<MatchRecord> ReadMatchRecord(const std::string& path);

struct RunMatches {
  std::vector<MatchRecord> matches;  // sorted by file name
  // Files that could not be read, each "PATH: what is wrong"; they are skipped.
  std::vector<std::string> skipped;
  bool dir_exists = false;  // RUN_DIR/matches exists
};

// Loads every RUN_DIR/matches/*.json (temporary files of unfinished writes are ignored).
RunMatches LoadRunMatches(const std::string& run_dir);

// One PairResult per match (A's wins, B's wins), for ComputeLadder.
std::vector<PairResult> PairResults(const std::vector<MatchRecord>& matches);

}  // namespace veletas::arena
