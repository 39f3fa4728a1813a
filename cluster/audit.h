// `veletas cluster audit RUN_DIR`: checks that every self-play game of a run is stored once
// (by game id, across all its sample files) and counts the arena games of its matches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace veletas::cluster {

struct RunAudit {
  int64_t sample_files = 0;
  int64_t selfplay_games = 0;
  int64_t games_with_id = 0;            // the others were played in the learner's process
  std::vector<std::string> duplicates;  // "<id>: <file>, <file>"
  std::vector<std::string> unreadable;  // files that could not be read
  int64_t matches = 0;
  int64_t match_games = 0;
};

// Reads RUN_DIR/samples/**/*.vzs and RUN_DIR/matches/*.json. Errors: no such run directory.
util::Result<RunAudit> AuditRun(const std::string& run_dir);

}  // namespace veletas::cluster
