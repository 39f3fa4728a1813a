// Shared pieces of the arena commands (`veletas match`, `veletas gate`): building players
// from specs (the text of a match is arena/match_text.h).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "arena/arena.h"
#include "arena/player_spec.h"
#include "model/network_pool.h"
#include "search/search_config.h"
#include "util/result.h"
#include "util/run_dir.h"

namespace veletas::app {

// The arena player of `spec`: random and UCT players as they are; an MCTS player loads its
// checkpoint through `models` (one network per checkpoint, shared) and is named
// gen_<generation from the checkpoint>. `search` gives the MCTS settings other than the
// simulations (search::ForPlay is applied by the arena).
util::Result<arena::ArenaPlayer> ResolvePlayer(const arena::PlayerSpec& spec,
                                               model::NetworkPool& models,
                                               const search::SearchConfig& search);

// The player of command-line option --<option> = `text`: the spec `text` when it is one
// (random, uct:..., mcts:...), else the checkpoint `text` played as mcts:<text>:<simulations>;
// resolved with ResolvePlayer. Errors are prefixed "--<option>: ".
util::Result<arena::ArenaPlayer> PlayerOption(const std::string& option, const std::string& text,
                                              int simulations, model::NetworkPool& models,
                                              const search::SearchConfig& search);

// The two players of the specs `specs` (--a and --b; checkpoints loaded through `models`),
// named by `names` where given, else after their specs, with distinct names (a suffix _a,
// _b). Errors name the option.
util::Result<std::array<arena::ArenaPlayer, 2>> MatchPlayers(
    const std::array<std::string, 2>& specs, const std::array<std::optional<std::string>, 2>& names,
    const search::SearchConfig& search, model::NetworkPool& models);

// Takes the lock of the run directory `run_dir` for a standalone gate or ladder (the lock a
// pipeline holds: neither runs on a run in progress, nor two on one run) and removes the
// stale temporaries of RUN_DIR/matches, each reported on stderr as "veletas <command>: PATH:
// removed ...". The error (a failure naming the directory) is returned, not printed.
util::Status LockRunDirectory(const std::string& command, const std::string& run_dir,
                              util::DirectoryLock& lock);

}  // namespace veletas::app
