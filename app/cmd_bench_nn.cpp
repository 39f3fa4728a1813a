// `veletas bench-nn`: network throughput. Evaluations per second through the evaluator's
// whole path (feature encoding, forward pass, softmax over legal actions) at batch sizes
// 1, 2, 4, ..., 256, and training samples per second (forward, losses, backward, SGD step)
// at a few batch sizes, on freshly initialised weights and positions from random games.
#include <cstdio>
#include <iostream>
#include <string>

#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "model/model_files.h"
#include "model/nn_bench.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

int RunBenchNn(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"config", true},
                           {"blocks", true},
                           {"channels", true},
                           {"size", true},
                           {"rules", true},
                           {"threads", true},
                           {"device", true},
                           {"seconds", true},
                           {"max-batch", true}},
                          argv, 0);
  if (!parsed) return UsageError("bench-nn", parsed.error());
  const ParsedArgs& args = parsed.value();
  model::NnBenchOptions o;
  o.size = 10;
  if (const auto file = args.Value("config")) {
    auto config = LoadConfig(*file);
    if (!config) {
      std::cerr << config.error() << "\n";
      return 2;
    }
    o.net = config.value().model;
    o.rules = config.value().game.rules;
    o.size = config.value().game.size;
  }
  auto game = ParseGameOptions(args);
  if (!game) return UsageError("bench-nn", game.error());
  if (args.Has("rules")) o.rules = game.value().rules;
  if (args.Has("size")) o.size = game.value().size;
  auto blocks = args.Int("blocks", o.net.blocks, 1, 40);
  auto channels = args.Int("channels", o.net.channels, 8, 512);
  auto threads = args.Int("threads", o.net.threads, 0, 256);
  auto seconds = args.Real("seconds", 1.0, 0.01, 600.0);
  auto max_batch = args.Int("max-batch", 256, 1, 4096);
  for (const auto* r : {&blocks, &channels, &threads, &max_batch}) {
    if (!*r) return UsageError("bench-nn", r->error());
  }
  if (!seconds) return UsageError("bench-nn", seconds.error());
  o.net.blocks = static_cast<int>(blocks.value());
  o.net.channels = static_cast<int>(channels.value());
  o.net.threads = static_cast<int>(threads.value());
  if (const auto d = args.Value("device")) {
    if (*d != "cpu" && *d != "cuda" && *d != "auto") {
      return UsageError("bench-nn", "--device: expected cpu, cuda or auto, got \"" + *d + "\"");
    }
    o.net.device = *d;
  }
  o.min_seconds = seconds.value();

  auto bench = model::NnBench::Create(o);
  if (!bench) {
    std::cerr << "veletas bench-nn: " << bench.error() << "\n";
    return 1;
  }
  model::NnBench& b = *bench.value();
  std::printf("network: %d blocks x %d channels (heads %d, value %d), %lld parameters\n",
              o.net.blocks, o.net.channels, o.net.head_channels, o.net.value_hidden,
              static_cast<long long>(model::ParameterCount(o.net)));
  std::printf("game: %s %dx%d; device: %s; intra-op threads: %d\n", rules::RuleSetName(o.rules),
              o.size, o.size, b.DeviceName().c_str(), b.Threads());
  std::printf("\nevaluation (encode + forward + legal softmax)\n%8s %14s %12s\n", "batch",
              "positions/s", "ms/call");
  for (int batch = 1; batch <= max_batch.value(); batch *= 2) {
    const double rate = b.EvalRate(batch);
    std::printf("%8d %14.0f %12.3f\n", batch, rate, 1000.0 * batch / rate);
    std::fflush(stdout);
  }
  std::printf("\ntraining (encode + forward + losses + backward + SGD step)\n%8s %14s %12s\n",
              "batch", "samples/s", "ms/step");
  for (int batch : {32, 128, 256}) {
    if (batch > max_batch.value()) break;
    const double rate = b.TrainRate(batch);
    std::printf("%8d %14.0f %12.3f\n", batch, rate, 1000.0 * batch / rate);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(bench_nn, "bench-nn",
                "[--config FILE] [--blocks B] [--channels C] [--size N] [--rules R] "
                "[--threads T] [--device D] [--seconds S] [--max-batch B]",
                "network speed: evaluations/s at batch 1..256 and training samples/s", RunBenchNn);

}  // namespace veletas::app
