// The players of the arena commands (`veletas match`, `gate`, `ladder`) from their options:
// specs or checkpoints, the networks opened through the caller's NetworkSource (the app's
// model::NetworkPool; the arena has no Torch); and the lock of a standalone gate or ladder's
// run directory. The text of a match is arena/match_text.h.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "arena/arena.h"
#include "arena/player_spec.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "util/result.h"
#include "util/run_dir.h"

namespace veletas::arena {

// A network an MCTS player searches with: the generation of its checkpoint and its evaluator
// (owned by the source, shared by the players of one checkpoint and precision).
struct PlayerNetwork {
  long long generation = 0;
  search::Evaluator* evaluator = nullptr;
};

// The network of `checkpoint` at inference precision `precision` ("" = the default), loaded
// on first use. Errors name the file (missing, corrupt, another game) or the precision.
using NetworkSource = std::function<util::Result<PlayerNetwork>(const std::string& checkpoint,
                                                                const std::string& precision)>;

// The factory of the timed player `player` (its spec has a time per turn; for kMcts its network
// was loaded through the NetworkSource). Errors name the file or setting that stops it.
using TimedPlayerSource = std::function<util::Result<TimedPlayerFactory>(const ArenaPlayer&)>;

// The arena player of `spec`: random and UCT players as they are; an MCTS player loads its
// checkpoint through `networks` (one network per checkpoint, shared) and is named
// gen_<generation from the checkpoint> (+ "_<P>" with a precision, "_<T>ms" with a time per
// turn). `search` gives the MCTS settings other than the simulations (search::ForPlay is applied
// by the arena). A timed spec gets its factory from `timed`; without one (the commands other
// than `veletas match`), ValidateArena refuses it.
util::Result<ArenaPlayer> ResolvePlayer(const PlayerSpec& spec, const NetworkSource& networks,
                                        const search::SearchConfig& search,
                                        const TimedPlayerSource& timed = {});

// The player of command-line option --<option> = `text`: the spec `text` when it is one
// (random, uct:..., mcts:...), else the checkpoint `text` played as mcts:<text>:<simulations>;
// resolved with ResolvePlayer. Errors are prefixed "--<option>: ".
util::Result<ArenaPlayer> PlayerOption(const std::string& option, const std::string& text,
                                       int simulations, const NetworkSource& networks,
                                       const search::SearchConfig& search);

// The two players of the specs `specs` (--a and --b; checkpoints loaded through `networks`,
// timed players made by `timed`), named by `names` where given, else after their specs, with
// distinct names (a suffix _a, _b). Errors name the option.
util::Result<std::array<ArenaPlayer, 2>> MatchPlayers(
    const std::array<std::string, 2>& specs, const std::array<std::optional<std::string>, 2>& names,
    const search::SearchConfig& search, const NetworkSource& networks,
    const TimedPlayerSource& timed = {});

// Takes the lock of the run directory `run_dir` for a standalone gate or ladder (the lock a
// pipeline holds: neither runs on a run in progress, nor two on one run) and removes the
// stale temporaries of RUN_DIR/matches, each reported on `report` as "veletas <command>: PATH:
// removed ...". The error (a failure naming the directory) is returned, not printed.
util::Status LockRunDirectory(const std::string& command, const std::string& run_dir,
                              util::DirectoryLock& lock, std::ostream& report);

}  // namespace veletas::arena
