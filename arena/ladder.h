// The rating-ladder workflow: after each generation the pipeline calls RunLadderRound, which
// plays the new generation against fixed anchors (the uniform random player and UCT-rollout
// players at fixed budgets) and against the latest earlier generations, writing every match
// into RUN_DIR/matches/ so that `veletas ratings RUN_DIR` (Bradley-Terry, random fixed at
// 0; arena/ratings.h) rates all players of the run together.
//
// Matches and their names (files RUN_DIR/matches/<name>.json, game records beside them):
//   anchors_random-vs-uct_<a1>, anchors_uct_<a1>-vs-uct_<a2>, ...  (once per run, chained
//       in increasing budget, LadderConfig::anchor_games each)
//   ladder_gen_<N>-vs-random, ladder_gen_<N>-vs-uct_<a>  (games_vs_anchors each)
//   ladder_gen_<N>-vs-gen_<M>  for the earlier generations given (games_vs_previous each)
// A match whose file already exists is not played again (a restarted round resumes).
// Each match's openings and seeds derive from ArenaConfig::seed and the match name.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/arena_journal.h"
#include "arena/arena_settings.h"
#include "arena/elo.h"
#include "arena/ratings.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::arena {

// The earlier generations generation `generation` should play: the `count` largest of
// `available` below it, largest first.
std::vector<long long> PreviousGenerationsToPlay(long long generation,
                                                 std::vector<long long> available, int count);

// The anchor players of a ladder: random, then uct:<N> for each configured budget in
// increasing order (duplicates dropped).
std::vector<ArenaPlayer> LadderAnchors(const LadderConfig& config);

struct LadderMatchReport {
  std::string name;  // match name (file stem)
  std::string a;     // player names
  std::string b;
  int a_wins = 0;
  int b_wins = 0;
  EloEstimate elo;       // A minus B from this match
  bool existed = false;  // the file was there already; not played now
  ArenaStats stats;      // of the games played now
  // What the match's journal (arena_journal.h) gave back or dropped, one line each.
  std::vector<std::string> notes;
};

struct LadderRoundResult {
  std::vector<LadderMatchReport> matches;  // in the order played
  // The ladder of every match in RUN_DIR/matches after the round (random fixed at 0), or
  // why it could not be computed; files that could not be read are listed.
  std::optional<Ladder> ladder;
  std::string ladder_error;
  std::vector<std::string> skipped_files;
};

// Progress of one match of the round: its name and the arena's progress.
using LadderProgressFn = std::function<void(const std::string& match, const ArenaProgress&)>;

// Plays the round described above for `newcomer` (usually MakeGenerationPlayer(N, ...))
// against the anchors and every player in `previous` (earlier generations, chosen with
// PreviousGenerationsToPlay), then rates the run. Errors (as values): invalid players or
// config (ValidateArena), a name clash with an anchor, a file that cannot be written,
// an exception an evaluator threw. Matches finished before an error stay written. With
// `remote`, the games are played there (arena_journal.h's RemoteGames).
util::Result<LadderRoundResult> RunLadderRound(const std::string& run_dir, rules::RuleSet rules,
                                               int size, const ArenaPlayer& newcomer,
                                               const std::vector<ArenaPlayer>& previous,
                                               const ArenaConfig& arena, const LadderConfig& ladder,
                                               const LadderProgressFn& progress = {},
                                               RemoteGames* remote = nullptr);

}  // namespace veletas::arena
