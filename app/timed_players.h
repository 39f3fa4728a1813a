// The timed players of `veletas match` (player specs with a time per turn, `uct:100ms`,
// `mcts:CKPT:100ms`): the arena::TimedPlayerSource that makes each game's player from a
// play::TurnSearcher (the arena sits below play and cannot make them itself). Every player
// searches on one thread: UCT with its tree and playouts, a network with a model evaluator of
// its own running on one intra-op thread, its leaves batched as the engine batches them
// (search.leaves_per_batch per evaluation).
#pragma once

#include "arena/player_options.h"
#include "config/config.h"

namespace veletas::app {

// The timed players for the config's game, search settings (search::ForPlay applied) and
// model runtime (threads set to 1; the spec's precision, else the config's). A network's
// evaluators are opened as games need them and reused by later games (one per game in flight).
// The source's errors name the checkpoint; an evaluator that cannot be opened later, mid-match
// (the file removed), throws std::runtime_error naming it.
arena::TimedPlayerSource TimedPlayers(const config::Config& config);

}  // namespace veletas::app
