// The journal of an arena match in progress (a gate or a ladder match of a run):
// RUN_DIR/matches/<name>.json.part gets one line per finished game at once, so that a
// killed run loses no finished game. A resumed match takes the journal's games back
// (Arena::Restore) and plays only the others; the journal is removed once the match file
// is saved. Rating tools read only *.json files, never journals.
//
// Format: JSON lines. The first line identifies the match (name, players and their specs,
// rules, size, seed, opening turns); each further line is one game (index, seats, colour,
// result, turns, record). A journal whose first line differs (another setup) is discarded.
#pragma once

#include <string>
#include <vector>

#include "rules/result.h"
#include "selfplay/arena.h"
#include "selfplay/arena_settings.h"

namespace veletas::selfplay {

// RUN_DIR/matches/<name>.json.part.
std::string MatchJournalPath(const std::string& run_dir, const std::string& name);

// Writes finished games of one match. Not thread-safe: one writer per match.
class MatchJournal {
 public:
  // Opens the journal of match `name` between the arena's players under `run_dir`,
  // creating RUN_DIR/matches if needed. Games already in a journal of the same match are
  // returned in `restored` (each checked: a legal, finished record whose winner agrees with
  // its result); a torn or invalid line ends the reading, and the file is cut back to the
  // lines before it. `notes` gets one line per thing dropped. Errors name the file.
  static rules::Result<MatchJournal> Open(const std::string& run_dir, const std::string& name,
                                          const Arena& arena, const ArenaConfig& config,
                                          std::vector<ArenaGame>& restored,
                                          std::vector<std::string>& notes);

  // Appends one finished game. Returns "" or an error naming the file.
  std::string Append(const ArenaGame& game) const;
  // Removes the journal (after the match file is saved).
  void Remove() const;
  const std::string& Path() const { return path_; }

 private:
  explicit MatchJournal(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace veletas::selfplay
