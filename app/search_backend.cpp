#include "app/search_backend.h"

#include <random>

#include "app/config.h"
#include "model/torch_evaluator.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

using BackendResult = util::Result<std::unique_ptr<SearchBackend>>;

constexpr int kDefaultUctPlayouts = 1000;

}  // namespace

std::vector<OptionSpec> BackendOptionSpecs(bool allow_random) {
  std::vector<OptionSpec> specs = {{"model", true},   {"uct", true},   {"simulations", true},
                                   {"config", true},  {"rules", true}, {"size", true},
                                   {"threads", true}, {"seed", true}};
  if (allow_random) specs.push_back({"random", false});
  return specs;
}

util::Status SearchBackend::SetThreads(int threads) {
  evaluator->SetThreads(threads);
  return util::Ok();
}

util::Result<std::unique_ptr<SearchBackend>> MakeSearchBackend(const ParsedArgs& args) {
  auto b = std::make_unique<SearchBackend>();
  const int kinds = args.Has("model") + args.Has("uct") + args.Has("random");
  if (kinds > 1) return BackendResult::Error("give only one of --model, --uct and --random");

  // Settings: the config file (if any), then the options.
  Config config;
  bool have_config = false;
  if (const auto file = args.Value("config")) {
    auto loaded = LoadConfig(*file);
    if (!loaded) return BackendResult::Error(loaded.error());
    config = loaded.value();
    have_config = true;
  }
  auto game = ParseGameOptions(args);
  if (!game) return BackendResult::Error(game.error());
  auto simulations = args.Int("simulations", config.search.simulations, 1, 100000000);
  if (!simulations) return BackendResult::Error(simulations.error());
  auto threads = args.Int("threads", config.model.threads, 0, 256);
  if (!threads) return BackendResult::Error(threads.error());
  auto seed = args.Int("seed", -1, 0, 1LL << 62);
  if (!seed) return BackendResult::Error(seed.error());
  b->seed = seed.value() >= 0
                ? static_cast<uint64_t>(seed.value())
                : (static_cast<uint64_t>(std::random_device{}()) << 20) ^ std::random_device{}();
  b->rules = have_config ? config.game.rules : rules::RuleSet::kStandard;
  b->size = have_config ? config.game.size : 10;

  if (const auto ckpt = args.Value("model")) {
    // The game of --rules/--size when given; the architecture is the checkpoint's own.
    model::ModelRequirement need;
    if (args.Has("rules")) need.rules = game.value().rules;
    if (args.Has("size")) need.size = game.value().size;
    need.source = "--rules/--size";
    model::NetConfig runtime = config.model;
    runtime.threads = static_cast<int>(threads.value());
    auto opened = model::TorchEvaluator::Open(*ckpt, need, runtime);
    if (!opened) return opened.error_value();
    const model::CheckpointMeta& m = opened.value().meta;
    b->rules = m.rules;
    b->size = m.size;
    b->fixed_game = true;
    b->evaluator = std::move(opened.value().evaluator);
    search::SearchConfig sc = search::ForPlay(config.search);
    sc.simulations = static_cast<int>(simulations.value());
    b->visits = sc.simulations;
    b->searcher = play::TurnSearcher::Neural(*b->evaluator, sc, b->seed);
    b->description = b->searcher->AlgorithmName() + "(" + std::to_string(b->visits) + "), model " +
                     *ckpt + " (generation " + std::to_string(m.generation) + ")";
  } else if (args.Has("random")) {
    if (args.Has("simulations") || args.Has("threads")) {
      return BackendResult::Error("--simulations and --threads are for --model");
    }
    b->random = true;
    b->description = "random";
  } else {
    auto playouts = args.Int("uct", kDefaultUctPlayouts, 1, 100000000);
    if (!playouts) return BackendResult::Error(playouts.error());
    if (args.Has("simulations") && args.Has("uct")) {
      return BackendResult::Error("--simulations is for --model; --uct N gives the playouts");
    }
    b->visits = static_cast<int>(args.Has("simulations") ? simulations.value() : playouts.value());
    if (args.Has("threads")) return BackendResult::Error("--threads is for --model");
    b->searcher = play::TurnSearcher::Uct(search::UctConfig{}.c_uct, b->seed);
    b->description = "uct(" + std::to_string(b->visits) + ")";
  }
  if (args.Has("rules")) b->rules = game.value().rules;
  if (args.Has("size")) b->size = game.value().size;
  return b;
}

}  // namespace veletas::app
