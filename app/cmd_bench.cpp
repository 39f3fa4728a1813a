// `veletas bench [PART]`: without a part, fixed rules-core workloads (perft from fixed
// positions, seeded uniformly random games on every size) with their speeds and one signature
// number that changes whenever the behaviour of the rules core changes (rules/bench.h). Its
// parts measure the other layers; here the two without a run's config:
// - `bench search`: the search layer without a network (search/search_bench_report.h): MCTS
//   simulations/s with a zero-cost evaluator, bytes per tree node, UCT playouts/s;
// - `bench nn`: the network (model/nn_bench_report.h): evaluations/s through the evaluator's
//   whole path by precision and batch size, and training samples/s, on fresh weights.
// The others: app/cmd_bench_selfplay.cpp (selfplay, spot-check), cmd_bench_train.cpp,
// cmd_bench_cluster.cpp.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "config/config.h"
#include "model/nn_bench_report.h"
#include "rules/bench.h"
#include "rules/notation.h"
#include "search/search_bench_report.h"

namespace veletas::app {
namespace {

CommandRun SetupBench(CLI::App& cmd) {
  auto games = std::make_shared<long long>(rules::kBenchGames);
  cmd.add_option("--games", *games,
                 "random games per rule set and board size (the bench without a PART)")
      ->check(CLI::Range(1LL, 10'000'000LL));
  return [games] {
    auto signature = rules::BenchSignature(*games, &std::cout);
    if (!signature) return CommandError("bench", {signature.error(), util::ErrorKind::kFailure});
    return 0;
  };
}

struct BenchSearchArgs {
  search::SearchBenchOptions bench;
  std::string rules = "standard";
};

CommandRun SetupBenchSearch(CLI::App& cmd) {
  auto o = std::make_shared<BenchSearchArgs>();
  cmd.add_option("--simulations", o->bench.simulations, "MCTS simulations per search")
      ->check(CLI::Range(1, 1'000'000));
  cmd.add_option("--positions", o->bench.positions, "positions searched per row")
      ->check(CLI::Range(1, 10'000));
  cmd.add_option("--leaves", o->bench.leaves, "leaves collected per evaluator batch")
      ->check(CLI::Range(1, 1024));
  cmd.add_option("--playouts", o->bench.playouts, "UCT playouts per search")
      ->check(CLI::Range(1, 10'000'000));
  cmd.add_option("--rules", o->rules, "rule edition")
      ->check(CLI::IsMember({"standard", "classic"}));
  return [o] {
    o->bench.rules = rules::ParseRuleSet(o->rules).value_or(rules::RuleSet::kStandard);
    search::PrintSearchBench(o->bench);
    return 0;
  };
}

struct BenchNnArgs {
  ConfigArgs config;
  std::optional<int> blocks, channels, threads;
  std::optional<std::string> device;
  double seconds = 1.0;
  int max_batch = 256;
  std::vector<std::string> precisions = {"torch", "fp32", "bf16", "int8"};
};

int RunBenchNn(const BenchNnArgs& args) {
  auto config = ConfigFromArgs(args.config);
  if (!config) {
    std::cerr << config.error() << "\n";
    return 2;
  }
  const config::Config& c = config.value();
  model::NnBenchOptions o{
      .net = c.model, .rules = c.game.rules, .size = c.game.size, .min_seconds = args.seconds};
  o.net.blocks = args.blocks.value_or(o.net.blocks);
  o.net.channels = args.channels.value_or(o.net.channels);
  o.net.threads = args.threads.value_or(o.net.threads);
  if (args.device) o.net.device = *model::ParseDevice(*args.device);  // checked by --device
  auto bench = model::NnBench::Create(o);
  if (!bench) return CommandError("bench nn", {bench.error(), util::ErrorKind::kFailure});
  model::PrintNnBench(*bench.value(), o, args.precisions, args.max_batch);
  return 0;
}

CommandRun SetupBenchNn(CLI::App& cmd) {
  auto o = std::make_shared<BenchNnArgs>();
  AddConfigOptions(cmd, o->config, /*config_required=*/false);
  cmd.add_option("--blocks", o->blocks, "residual blocks (default: the config's)")
      ->check(CLI::Range(1, 40));
  cmd.add_option("--channels", o->channels, "channels per block (default: the config's)")
      ->check(CLI::Range(8, 512));
  cmd.add_option("--threads", o->threads, "intra-op threads, 0 = all cores (default: the config's)")
      ->check(CLI::Range(0, 256));
  cmd.add_option("--device", o->device, "where the network runs (default: the config's)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd.add_option("--seconds", o->seconds, "minimum time per measurement")
      ->check(CLI::Range(0.01, 600.0));
  cmd.add_option("--precisions", o->precisions,
                 "inference precisions measured (torch = the LibTorch path, the reference)")
      ->check(CLI::IsMember(model::kInferencePrecisions))
      ->delimiter(',');
  cmd.add_option("--max-batch", o->max_batch, "largest batch size measured")
      ->check(CLI::Range(1, 4096));
  return [o] { return RunBenchNn(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench, "bench",
                    "rules-core speed: perft and random games per size, with a signature number; "
                    "its parts measure the other layers (veletas bench --help)",
                    SetupBench);

VELETAS_CLI_PART(bench_search, "bench", "search",
                 "MCTS simulations/s with a zero-cost evaluator, bytes per node, UCT playouts/s",
                 SetupBenchSearch);

VELETAS_CLI_PART(bench_nn, "bench", "nn",
                 "network speed: evaluations/s at batch 1..256 and training samples/s",
                 SetupBenchNn);

}  // namespace veletas::app
