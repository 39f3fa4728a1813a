#include "cli/interactive_player.h"

#include <filesystem>
#include <random>

#include "config/config.h"
#include "model/base/shipped_networks.h"
#include "rules/notation.h"

namespace veletas::cli {
namespace {

using PlayerResult = util::Result<std::unique_ptr<InteractivePlayer>>;

constexpr int kDefaultUctPlayouts = 1000;

// `b` plays the checkpoint `ckpt` with MCTS: the game of --rules/--size when given (else the
// checkpoint's), the checkpoint's own architecture.
util::Status LoadNetwork(InteractivePlayer& b, const std::string& ckpt, const PlayerArgs& args,
                         const config::Config& config, int simulations, const NetworkOpener& open) {
  model::ModelRequirement need;
  const config::GameConfig game = ResolveGame(args.config.game, config.game);
  if (args.config.game.rules) need.rules = game.rules;
  if (args.config.game.size) need.size = game.size;
  need.source = "--rules/--size";
  model::NetConfig runtime = config.model;
  runtime.threads = args.threads.value_or(config.model.threads);
  auto opened = open(ckpt, need, runtime);
  if (!opened) return opened.error_value();
  const model::CheckpointMeta& m = opened.value().meta;
  b.rules = m.rules;
  b.size = m.size;
  b.fixed_game = true;
  b.evaluator = std::move(opened.value().evaluator);
  b.set_threads = std::move(opened.value().set_threads);
  search::SearchConfig sc = search::ForPlay(config.search);
  sc.simulations = simulations;
  b.visits = sc.simulations;
  b.searcher = play::TurnSearcher::Neural(*b.evaluator, sc, b.seed);
  // The file's name, not its path: the description reaches GUIs' and game sites' logs.
  b.description = b.searcher->AlgorithmName() + "(" + std::to_string(b.visits) + "), model " +
                  std::filesystem::path(ckpt).filename().string() + " (generation " +
                  std::to_string(m.generation) + ")";
  return util::Ok();
}

// `b` plays UCT with random playouts (--uct N, or --simulations N without a network).
util::Status SetUpUct(InteractivePlayer& b, const PlayerArgs& args, int simulations) {
  if (args.simulations && args.uct) {
    return util::Status::Error("--simulations is for --model; --uct N gives the playouts");
  }
  b.visits = args.simulations ? simulations : args.uct.value_or(kDefaultUctPlayouts);
  if (args.threads) return util::Status::Error("--threads is for --model");
  b.searcher = play::TurnSearcher::Uct(search::UctConfig{}.c_uct, b.seed);
  b.description = "uct(" + std::to_string(b.visits) + ")";
  return util::Ok();
}

}  // namespace

void AddPlayerOptions(CLI::App& cmd, PlayerArgs& args, bool allow_random, bool uct_fallback) {
  CLI::Option* model =
      cmd.add_option("--model", args.model,
                     "network checkpoint, searched with MCTS (default: the network shipped for the "
                     "game in $VELETAS_NETWORKS or networks/, if any)")
          ->type_name("CKPT");
  CLI::Option* uct =
      cmd.add_option("--uct", args.uct,
                     uct_fallback
                         ? "UCT with random playouts: N playouts per turn (the default player "
                           "when no network is shipped for the game, " +
                               std::to_string(kDefaultUctPlayouts) + ")"
                         : std::string("UCT with random playouts: N playouts per turn (needed, "
                                       "or --model, when no network is shipped for the game)"))
          ->type_name("N")
          ->check(CLI::Range(1, 100'000'000))
          ->excludes(model);
  if (allow_random) {
    cmd.add_flag("--random", args.random, "a uniformly random player")
        ->excludes(model)
        ->excludes(uct);
  }
  cmd.add_option("--simulations", args.simulations,
                 "--model: simulations per sub-decision (default: the config's search section)")
      ->type_name("N")
      ->check(CLI::Range(1, 100'000'000));
  cmd.add_option("--threads", args.threads,
                 "--model: intra-op threads of the network, 0 = all cores (default: the config's)")
      ->type_name("N")
      ->check(CLI::Range(0, 256));
  cmd.add_option("--seed", args.seed, "seed of the search (default: random)")
      ->check(CLI::Range(0LL, 1LL << 62));
  AddConfigOptions(cmd, args.config, /*config_required=*/false);
}

play::EngineSetup MakeEngineSetup(InteractivePlayer& b) {
  play::EngineSetup setup;
  setup.version = VELETAS_VERSION;
  setup.description = b.description;
  setup.rules = b.rules;
  setup.size = b.size;
  setup.fixed_game = b.fixed_game;
  setup.searcher = b.searcher.get();
  setup.visits = b.visits;
  if (b.evaluator) {
    setup.set_threads = [&b](int threads) {
      b.set_threads(threads);
      return util::Ok();
    };
  }
  return setup;
}

play::TerminalGameSetup MakeTerminalSetup(const InteractivePlayer& b, int human,
                                          const std::string& record_file) {
  play::TerminalGameSetup setup;
  setup.rules = b.rules;
  setup.size = b.size;
  setup.human = human;
  setup.engine = b.searcher.get();  // null for --random
  setup.engine_visits = b.visits;
  setup.seed = b.seed;
  setup.engine_description = b.description;
  setup.record_file = record_file;
  // Hints come from the engine's own searcher (against --random: UCT, as play/ sets it up).
  setup.adviser = b.searcher.get();
  setup.hint_visits = b.visits;
  return setup;
}

util::Result<std::unique_ptr<InteractivePlayer>> MakeInteractivePlayer(const PlayerArgs& args,
                                                                       const NetworkOpener& open) {
  auto b = std::make_unique<InteractivePlayer>();
  // Settings: the config file (if any; else standard 10x10), then the options.
  auto loaded = ConfigFromArgs(ConfigArgs{args.config.config, {}, args.config.precision});
  if (!loaded) return loaded.error_value();
  const config::Config& config = loaded.value();
  const config::GameConfig game = ResolveGame(args.config.game, config.game);
  const int simulations = args.simulations.value_or(config.search.simulations);
  b->seed = args.seed
                ? static_cast<uint64_t>(*args.seed)
                : (static_cast<uint64_t>(std::random_device{}()) << 20) ^ std::random_device{}();
  b->rules = game.rules;
  b->size = game.size;

  if (args.model) {
    if (auto s = LoadNetwork(*b, *args.model, args, config, simulations, open); !s)
      return s.error_value();
  } else if (!args.random && !args.uct) {
    // The shipped network of the game, if there is one (model/base/shipped_networks.h).
    auto shipped = model::FindShippedNetwork(game.rules, game.size);
    if (!shipped) {
      return PlayerResult::Error("the shipped network: " + shipped.error() +
                                 "; --model CKPT or --uct N plays without it");
    }
    if (shipped.value()) {
      const model::ShippedNetwork& n = *shipped.value();
      if (auto s = LoadNetwork(*b, n.checkpoint, args, config, simulations, open); !s) {
        return s.error_value();
      }
      b->description += ", shipped network " + n.card.name;
      // One short line: the card's results are in the folder's CARD.md.
      b->notice = "plays the shipped network " + n.card.name + " (its CARD.md has its results); " +
                  "--model or --uct overrides";
    } else {
      b->notice = "no network is shipped for " + model::ShippedNetworkName(game.rules, game.size) +
                  " ($VELETAS_NETWORKS or the source tree's networks/): UCT with random "
                  "playouts plays; " +
                  "--model CKPT plays a network";
      if (auto s = SetUpUct(*b, args, simulations); !s) return s.error_value();
    }
  } else if (args.random) {
    if (args.simulations || args.threads) {
      return PlayerResult::Error("--simulations and --threads are for --model");
    }
    b->random = true;
    b->description = "random";
  } else {
    if (auto s = SetUpUct(*b, args, simulations); !s) return s.error_value();
  }
  if (args.config.game.rules) b->rules = game.rules;
  if (args.config.game.size) b->size = game.size;
  return b;
}

}  // namespace veletas::cli
