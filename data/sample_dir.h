// The self-play output directory: which games go to which sample file, and what an earlier
// (killed) run of the same job already left there (resume).
//
// Layout: a run of G games with games_per_file = F writes files <dir>/<prefix>_<k>.vzs for
// k = 0 .. ceil(G / F) - 1; file k holds games k*F .. min((k+1)*F, G) - 1 in game-index
// order. Game indices determine the seeds (selfplay::GameSeed), so a file present means its
// games were played with their seeds, and a resumed run plays exactly the indices of the
// files that are missing (or unreadable): no seed is used twice in the data, and a
// deterministic run resumed after a kill writes the same files it would have written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/game_journal.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::data {

// "<dir>/<prefix>_<chunk>.vzs".
std::string ChunkPath(const std::string& dir, const std::string& prefix, int64_t chunk);
// Number of files of a run of `games` games.
int64_t ChunkCount(int64_t games, int games_per_file);
// Games in file `chunk` of a run of `games` games.
int64_t ChunkGames(int64_t chunk, int64_t games, int games_per_file);

struct ResumePlan {
  std::vector<uint64_t> indices;  // game indices still to play, increasing
  int64_t games_done = 0;         // games in the complete files found
  // Finished games of incomplete files, taken back from their journals (game_journal.h);
  // their indices are not in `indices`.
  std::vector<JournalGame> recovered;
  int64_t files_done = 0;
  // The ids of the games in the complete files (games without an id left out).
  std::vector<GameId> done_ids;
  // One line per file that could not be used (unreadable or corrupt: it is skipped, its
  // games are played again and the file is replaced) or that was ignored (a chunk number
  // past this run's last file), per journal of a complete file removed, and per journal
  // games were taken back from.
  std::vector<std::string> notes;
};

// Looks at `dir` (created if missing) for this run's files and plans what is left. Errors
// (a hard stop: the directory holds another run's data): a readable file of another rule
// set or board size, or holding a different number of games than its chunk should (e.g.
// games_per_file or the number of games changed); a file or journal entry of another format
// version (an earlier build's: left untouched); a prefix that is not a plain name
// (util::ValidateName: "../x" would write outside `dir`); and an unusable directory.
// Preconditions: games >= 0, games_per_file >= 1; no other process writes in `dir` (the
// caller holds its lock and removed its stale temporaries, as RunSelfplay does).
util::Result<ResumePlan> PlanResume(const std::string& dir, const std::string& prefix,
                                    int64_t games, int games_per_file, rules::RuleSet rules,
                                    int size);

}  // namespace veletas::data
