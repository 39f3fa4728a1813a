// The journal of an arena match in progress (a gate or a ladder match of a run, or a match
// of `veletas match`):
// RUN_DIR/matches/<name>.json.part gets one line per finished game at once, so that a
// killed run loses no finished game. A resumed match takes the journal's games back
// (Arena::Restore) and plays only the others; the journal is removed once the match file
// is saved. Rating tools read only *.json files, never journals.
//
// Format: JSON lines. The first line identifies the match (name, players and their specs,
// rules, size, seed, opening turns); each further line is one game (index, seats, colour,
// result, turns, record). A journal whose first line differs (another setup) is discarded.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arena/arena.h"
#include "arena/arena_settings.h"
#include "arena/match_record.h"
#include "util/result.h"

namespace veletas::arena {

// RUN_DIR/matches/<name>.json.part.
std::string MatchJournalPath(const std::string& run_dir, const std::string& name);

// Ok when `game` is a finished game of `rules` and `size` whose seats agree with its index and
// whose result agrees with its record (replayed through the rules); else bad input saying
// what is wrong. Thread-safe.
util::Status ValidateArenaGame(const ArenaGame& game, rules::RuleSet rules, int size);

// A match whose games are played elsewhere (by RemoteGames).
struct RemoteMatch {
  const std::string& name;
  const Arena& arena;         // the players (specs, names), rules and board size
  const ArenaConfig& config;  // seed and opening turns: the games are Arena's games
};

// Where a match's games come from when they are not played in this process: the cluster's
// workers (cluster/learner/remote_arena.h). The pipeline passes one to the gate and the ladder.
class RemoteGames {
 public:
  virtual ~RemoteGames() = default;
  // Has games `indices` of `match` played (each as Arena::PlayGames plays it) and hands
  // every game that arrives to `accept`, each index until one is accepted. `accept` returns
  // bad input for a game it refuses (not a valid game of the match: another one is waited
  // for) and a failure that ends Play (its write failed). Returns when every index has been
  // accepted, or the failure.
  virtual util::Status Play(const RemoteMatch& match, const std::vector<int>& indices,
                            const std::function<util::Status(const ArenaGame&)>& accept) = 0;
};

// The first line of the journal of match `name` between the arena's players.
std::string MatchJournalHeader(const std::string& name, const Arena& arena,
                               const ArenaConfig& config);

// Reads the journal text `data` (the file `path`, named in `notes`) of the match whose
// first line is `header`: appends its valid games to `restored` (each checked: a legal,
// finished game of `rules` and `size` whose winner agrees with its result, an index seen
// once) until the first torn or invalid line, which gets a line in `notes`. Returns the
// length of the good part (header and games read), or 0 when the first line differs (another
// setup of the match). Thread-safe.
size_t ParseMatchJournal(std::string_view data, const std::string& header, rules::RuleSet rules,
                         int size, const std::string& path, std::vector<ArenaGame>& restored,
                         std::vector<std::string>& notes);

// The record of match `name` when its file RUN_DIR/matches/<name>.json exists (the match
// is finished), else nullopt. A journal left next to a finished match (a run killed
// between saving the match and removing the journal) is removed, with a line in `notes`.
// Errors name the file (an unreadable match file). Not thread-safe for one match.
util::Result<std::optional<MatchRecord>> ReadFinishedMatch(const std::string& run_dir,
                                                           const std::string& name,
                                                           std::vector<std::string>& notes);

// Writes finished games of one match. Not thread-safe: one writer per match.
class MatchJournal {
 public:
  // Opens the journal of match `name` between the arena's players under `run_dir`,
  // creating RUN_DIR/matches if needed. Games already in a journal of the same match are
  // returned in `restored` (each checked: a legal, finished record whose winner agrees with
  // its result); a torn or invalid line ends the reading, and the file is cut back to the
  // lines before it. `notes` gets one line per thing dropped. Errors name the file.
  static util::Result<MatchJournal> Open(const std::string& run_dir, const std::string& name,
                                         const Arena& arena, const ArenaConfig& config,
                                         std::vector<ArenaGame>& restored,
                                         std::vector<std::string>& notes);

  // Appends one finished game, synced to the device before returning (util::AppendFile).
  // The error names the file.
  util::Status Append(const ArenaGame& game) const;
  // Removes the journal (after the match file is saved).
  void Remove() const;
  const std::string& Path() const { return path_; }

 private:
  explicit MatchJournal(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// One match of a run played with its journal: what the journal holds is taken back, every
// newly finished game is appended, and Save writes the match file and removes the journal.
// Used by the gate and the ladder. Not thread-safe.
class JournaledMatch {
 public:
  // Precondition: ValidateArena(a, b, rules, size, config) is OK. With `remote`, the games
  // are played there (RemoteGames) instead of in this process.
  JournaledMatch(std::string run_dir, std::string name, const ArenaPlayer& a, const ArenaPlayer& b,
                 rules::RuleSet rules, int size, const ArenaConfig& config,
                 RemoteGames* remote = nullptr);

  // Opens the journal and takes its games back (MatchJournal::Open). Call once, first.
  // The error names the file.
  util::Status Open(std::vector<std::string>& notes);
  // Plays the next `count` games (Arena::Play, or remotely), journaling each. The error is
  // the journal's, the remote's, or the exception an evaluator threw (as "match <name>:
  // <what>", a failure); games finished before an error stay journaled. A remote game is
  // journaled only when it is one of those asked for, not in yet, valid
  // (ValidateArenaGame) and starts with its pair's opening.
  util::Status Play(int count, const ArenaProgressFn& progress);
  // Writes the match record (with `gate`, if any) and its game records (SaveMatch), then
  // removes the journal. Returns the record, or an error naming the file.
  util::Result<MatchRecord> Save(const std::optional<GateEvidence>& gate);

  const Arena& arena() const { return arena_; }
  // Games taken back from the journal by Open.
  int Restored() const { return restored_; }
  // Stops local play early (Arena::SetStop): the games finished so far stay journaled.
  void SetStop(const std::atomic<bool>* stop) { arena_.SetStop(stop); }

 private:
  util::Status AcceptRemote(const ArenaGame& game, const std::set<int>& wanted,
                            std::vector<ArenaGame>& got);

  std::string run_dir_;
  std::string name_;
  ArenaConfig config_;
  std::string started_;
  Arena arena_;
  std::optional<MatchJournal> journal_;
  RemoteGames* remote_ = nullptr;
  std::map<int, bool> in_;  // journaled games: index -> A won
  int restored_ = 0;
};

}  // namespace veletas::arena
