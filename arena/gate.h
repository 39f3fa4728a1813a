// The promotion gate: a candidate network plays the current best one and is promoted when
// it is measurably stronger (SPRT, or a fixed number of games with a score threshold; the
// statistics are arena/sprt.h). The pipeline calls RunGate after training a candidate.
#pragma once

#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/arena_journal.h"
#include "arena/arena_settings.h"
#include "arena/match_record.h"
#include "arena/sprt.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::arena {

struct GateResult {
  GateEvidence evidence;   // the decision and its numbers
  bool promoted = false;   // evidence.decision == kPromote
  bool resumed = false;    // read from an existing match file instead of played
  MatchRecord record;      // the match as written (gate field set)
  std::string match_file;  // RUN_DIR/matches/<name>.json
  ArenaStats stats;        // of the games played now (empty when resumed)
  // What the match's journal (arena_journal.h) gave back or dropped, one line each.
  std::vector<std::string> notes;
};

// Plays `candidate` (player A) against `best` (player B) in batches of
// settings.batch_games games (the last one shorter when a cap or the planned games end
// sooner), evaluating the gate after each batch, until it decides: SPRT (promote on H1,
// reject on H0 or at max_games) or fixed games (as soon as the rest cannot change the
// outcome). Writes RUN_DIR/matches/<match_name>.json with the evidence in its `gate` field
// and the game records beside it (arena/arena_record.h); `match_name` "" means
// "gate_<candidate>-vs-<best>". When that file already holds a gate decision, it is
// returned without playing (so a restarted pipeline does not replay a gate).
// Errors (as values): ValidateArena / GateSettings::Validate failures, a write failure, an
// existing file of that name that is unreadable or has no gate, an exception an evaluator
// threw. `progress` as in Arena::Play (games_total is the cap of the gate). With `remote`,
// the games are played there (arena_journal.h's RemoteGames, e.g. by cluster workers).
util::Result<GateResult> RunGate(const ArenaPlayer& candidate, const ArenaPlayer& best,
                                 rules::RuleSet rules, int size, const GateSettings& settings,
                                 const ArenaConfig& arena, const std::string& run_dir,
                                 const std::string& match_name = "",
                                 const ArenaProgressFn& progress = {},
                                 RemoteGames* remote = nullptr);

}  // namespace veletas::arena
