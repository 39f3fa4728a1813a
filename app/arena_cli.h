// Shared pieces of the arena commands (`veletas match`, `veletas gate`): building players
// from specs and the text summary of a match.
#pragma once

#include <string>

#include "app/arena_models.h"
#include "arena/arena.h"
#include "arena/player_spec.h"
#include "search/search_config.h"
#include "util/result.h"
#include "util/run_dir.h"

namespace veletas::app {

// The arena player of `spec`: random and UCT players as they are; an MCTS player loads its
// checkpoint through `models` (one network per checkpoint, shared) and is named
// gen_<generation from the checkpoint>. `search` gives the MCTS settings other than the
// simulations (search::ForPlay is applied by the arena).
util::Result<arena::ArenaPlayer> ResolvePlayer(const arena::PlayerSpec& spec, ArenaModels& models,
                                               const search::SearchConfig& search);

// The player of command-line option --<option> = `text`: the spec `text` when it is one
// (random, uct:..., mcts:...), else the checkpoint `text` played as mcts:<text>:<simulations>;
// resolved with ResolvePlayer. Errors are prefixed "--<option>: ".
util::Result<arena::ArenaPlayer> PlayerOption(const std::string& option, const std::string& text,
                                              int simulations, ArenaModels& models,
                                              const search::SearchConfig& search);

// Takes the lock of the run directory `run_dir` for a standalone gate or ladder (the lock a
// pipeline holds: neither runs on a run in progress, nor two on one run) and removes the
// stale temporaries of RUN_DIR/matches, each reported on stderr as "veletas <command>: PATH:
// removed ...". The error (a failure naming the directory) is returned, not printed.
util::Status LockRunDirectory(const std::string& command, const std::string& run_dir,
                              util::DirectoryLock& lock);

// The result of a match in words: games and speed, wins by seat and colour, score, Elo A - B
// with its 95% interval, LOS, and the network batching when neural players took part.
std::string MatchSummary(const arena::Arena& arena);

}  // namespace veletas::app
