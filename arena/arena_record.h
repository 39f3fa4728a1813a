// Saving an arena match: the match record (arena/match_record.h) in
// RUN_DIR/matches/<name>.json and the games in notation in RUN_DIR/matches/<name>.records.txt,
// one game per line (line i + 1 is game i), which each result's `record` field points to
// as "matches/<name>.records.txt:<line>".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/match_record.h"
#include "arena/sprt.h"

namespace veletas::arena {

// "matches/<name>.records.txt": the records file, relative to the run directory.
std::string RecordsFileName(const std::string& match_name);

// The current UTC time as ISO 8601, e.g. "2024-05-01T10:00:00Z".
std::string UtcTimestamp();

// A valid match name "<prefix><a>-vs-<b>" (characters ValidateMatchName refuses become '_').
std::string MakeMatchName(const std::string& prefix, const std::string& a, const std::string& b);

// The match record of the games played so far by `arena` (players, results, record
// references), with `gate` and the timestamps.
MatchRecord MakeMatchRecord(const std::string& name, const Arena& arena,
                            const std::optional<GateEvidence>& gate, const std::string& started,
                            const std::string& finished);

// Writes the records file, then the match record (each atomically; the JSON last, so a
// match file exists only once its records do). `games` are the arena's games, in the order
// of record.games. The error names the file. Thread-safe for distinct names.
util::Status SaveMatch(const std::string& run_dir, const MatchRecord& record,
                       const std::vector<ArenaGame>& games);

}  // namespace veletas::arena
