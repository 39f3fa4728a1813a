// `veletas bench nn`: the network (model/nn_bench_report.h): evaluations/s through the
// evaluator's whole path by precision and batch size, and training samples/s, on fresh
// weights.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "config/config.h"
#include "model/nn_bench_report.h"

namespace veletas::app {
namespace {

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

VELETAS_CLI_PART(bench_nn, "bench", "nn",
                 "network speed: evaluations/s at batch 1..256 and training samples/s",
                 SetupBenchNn);

}  // namespace veletas::app
