// `veletas cluster audit RUN_DIR`: checks that every self-play game of a run is stored once
// (by game id, across all its sample files) and says, for each gate and ladder match, which
// worker played which of its games (as the learner journaled them with each accepted
// result, cluster/learner/remote_arena.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/result.h"

namespace veletas::cluster {

// One match of the run: its decision and who played its games.
struct MatchAudit {
  std::string name;      // the match's file stem (e.g. gate_0004)
  std::string decision;  // a gate's: "promote", "reject" or "continue"; "" for a ladder match
  int64_t games = 0;
  // Worker -> the indices of the games it played, ascending; kLearnerPlayer for the games
  // played in the learner's process (or recorded before workers were recorded).
  std::map<std::string, std::vector<int>> games_by_worker;
};

// The name MatchAudit uses for games played in the learner's process.
inline constexpr char kLearnerPlayer[] = "(learner)";

// "0-9, 20, 22-23": ascending `indices` as ranges.
std::string IndexRanges(const std::vector<int>& indices);

struct RunAudit {
  int64_t sample_files = 0;
  int64_t selfplay_games = 0;
  int64_t games_with_id = 0;            // the others were played in the learner's process
  std::vector<std::string> duplicates;  // "<id>: <file>, <file>"
  std::vector<std::string> unreadable;  // files that could not be read
  int64_t matches = 0;
  int64_t match_games = 0;
  std::vector<MatchAudit> match_workers;  // one per match, in the order of the files
};

// Reads RUN_DIR/samples/**/*.vzs and RUN_DIR/matches/*.json. Errors: no such run directory.
util::Result<RunAudit> AuditRun(const std::string& run_dir);

// `cluster audit`'s report of `a` for RUN_DIR `dir`: a summary line, then one line per match
// (its gate decision, which worker played which games), per duplicate and per unreadable file.
std::string AuditText(const std::string& dir, const RunAudit& a);

}  // namespace veletas::cluster
