// What plays and analyses in the interactive commands (play, engine, analyse): a network
// checkpoint searched with MCTS (--model CKPT), UCT with random playouts (--uct N), or a
// uniformly random player (--random, play only), set up from the command line and config.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/options.h"
#include "model/base/checkpoint_file.h"
#include "model/base/net_config.h"
#include "play/engine_protocol.h"
#include "play/terminal_game.h"
#include "play/turn_search.h"
#include "rules/position.h"
#include "search/evaluator.h"
#include "util/result.h"

namespace veletas::cli {

// The options every interactive command shares: --model CKPT, --uct N, --random (when
// allowed), --simulations N, --config FILE, --rules, --size, --threads N, --seed N.
struct PlayerArgs {
  std::optional<std::string> model;
  std::optional<int> uct;
  bool random = false;
  std::optional<int> simulations;
  std::optional<int> threads;
  std::optional<long long> seed;
  ConfigArgs config;
};
// Declares them on `cmd` (at most one of --model, --uct and --random). `uct_fallback`: UCT
// plays when no network is shipped for the game (play, engine); else the command asks for
// --model or --uct then (analyse), and --uct's help says which.
void AddPlayerOptions(CLI::App& cmd, PlayerArgs& args, bool allow_random, bool uct_fallback = true);

// The player of an interactive command, as MakeInteractivePlayer builds it.
struct InteractivePlayer {
  // The game: from --rules/--size, else the checkpoint's, else the config's game section,
  // else standard 10x10. A network plays only its own rules and size (fixed_game).
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 10;
  bool fixed_game = false;
  // e.g. "puct(200), model g3.ckpt (generation 3)", "uct(1000)", "random".
  std::string description;
  // Without --model/--uct/--random: which shipped network plays (path and card summary), or
  // that none is shipped for the game; the command prints it as one line on stderr.
  std::string notice;
  // Default budget: simulations per sub-decision (network) or playouts per turn (uct).
  int visits = 0;
  bool random = false;  // --random: no searcher
  uint64_t seed = 0;
  std::unique_ptr<search::Evaluator> evaluator;  // the network's (null otherwise)
  std::function<void(int)> set_threads;          // the network's intra-op threads
  std::unique_ptr<play::TurnSearcher> searcher;  // null for --random
};

// A network checkpoint opened for play: its evaluator, its metadata and how to set the
// evaluator's intra-op threads (0: one per core).
struct PlayNetwork {
  model::CheckpointMeta meta;
  std::unique_ptr<search::Evaluator> evaluator;
  std::function<void(int)> set_threads;
};

// Opens the checkpoint `ckpt` for play, checked against `need`, on the device and threads of
// `runtime` (the app passes model::NetworkEvaluator::Open; this library has no Torch).
// Errors name the file and what differs.
using NetworkOpener = std::function<util::Result<PlayNetwork>(
    const std::string& ckpt, const model::ModelRequirement& need, const model::NetConfig& runtime)>;

// The engine protocol's setup for `player` (its game, searcher, budget and, with a network,
// the thread setting); `player` must outlive the engine. Precondition: not --random.
play::EngineSetup MakeEngineSetup(InteractivePlayer& player);

// The terminal game's setup against `player` (its game, searcher, budget and seed; hints from
// its searcher), the human in seat `human` (0 first, 1 second), the record saved to
// `record_file` ("" : not). `player` must outlive the game.
play::TerminalGameSetup MakeTerminalSetup(const InteractivePlayer& player, int human,
                                          const std::string& record_file);

// Builds the player from parsed options. Options that do not apply to the player, or an
// unreadable, corrupt or mismatched checkpoint are errors (exit code 2). With none of
// --model/--uct/--random: the shipped network of the game (model::FindShippedNetwork; a
// corrupt or mismatching folder is an error), else uct with 1000 playouts. Networks are
// opened with `open`.
util::Result<std::unique_ptr<InteractivePlayer>> MakeInteractivePlayer(const PlayerArgs& args,
                                                                       const NetworkOpener& open);

}  // namespace veletas::cli
