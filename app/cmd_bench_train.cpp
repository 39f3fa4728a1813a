// `veletas bench-train`: the speed of the real training loop (sampling from the window,
// augmentation, encoding in the loader thread, forward, losses, backward, optimiser step,
// metrics, training-state files) against the raw forward + backward rate of the same
// network and batch size (model/nn_bench.h TrainRate), in one run: a few rounds, each
// measuring the raw rate and then the loop right after it (so both see the same machine
// load), for about `seconds` in all; with `--precisions fp32 bf16` each round measures both
// precisions in turn and the ratio is printed.
#include <unistd.h>

#include <fmt/format.h>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "config/config.h"
#include "rules/notation.h"
#include "training/train_bench.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;

struct BenchTrainArgs {
  std::string config;
  double seconds = 20.0;
  int rounds = 3;
  std::optional<int> threads;
  std::optional<std::string> work;
  std::vector<std::string> precisions;  // empty: the config's training.precision
};

int RunBenchTrain(const BenchTrainArgs& args) {
  auto config = config::LoadConfig(args.config);
  if (!config) return CommandError("bench-train", config.error_value());
  config::Config c = config.value();
  c.training.threads = args.threads.value_or(c.training.threads);
  std::vector<training::TrainPrecision> precisions;
  for (const std::string& p : args.precisions) {
    precisions.push_back(p == "bf16" ? training::TrainPrecision::kBf16
                                     : training::TrainPrecision::kFp32);
  }
  if (precisions.empty()) precisions.push_back(c.training.precision);
  const double chunk = args.seconds / (2.0 * args.rounds * static_cast<double>(precisions.size()));
  const training::TrainBenchSetup setup{c.training, {c.game.rules, c.game.size, c.model}};
  auto bench = training::RawTrainBench(setup, chunk);
  if (!bench) return CommandError("bench-train", {bench.error(), util::ErrorKind::kFailure});
  fmt::print(
      "network: {} blocks x {} channels (heads {}, value {}); {} {}x{}; batch {}; optimizer {}; "
      "device {}; intra-op threads {}\n",
      c.model.blocks, c.model.channels, c.model.head_channels, c.model.value_hidden,
      rules::RuleSetName(c.game.rules), c.game.size, c.game.size, c.training.batch_size,
      c.training.optimizer == training::Optimizer::kAdamW ? "adamw" : "sgd",
      bench.value()->DeviceName(), bench.value()->Threads());
  std::fflush(stdout);
  const fs::path work = args.work.value_or(
      (fs::temp_directory_path() / ("veletas_bench_train_" + std::to_string(::getpid()))).string());
  util::Status measured = training::PrepareTrainBench(setup, work);
  if (measured.ok()) {
    measured = training::MeasureTrainRounds(setup, *bench.value(), work, args.rounds, chunk,
                                            precisions, std::cout);
  }
  std::error_code ec;
  if (!args.work || !measured.ok()) fs::remove_all(work, ec);
  if (!measured.ok())
    return CommandError("bench-train", {measured.error(), util::ErrorKind::kFailure});
  return 0;
}

CommandRun SetupBenchTrain(CLI::App& cmd) {
  auto o = std::make_shared<BenchTrainArgs>();
  AddRequiredConfig(cmd, o->config, "config whose game, model and training apply");
  cmd.add_option("--seconds", o->seconds, "total measuring time")->check(CLI::Range(0.1, 3600.0));
  cmd.add_option("--rounds", o->rounds, "alternating rounds of both measurements")
      ->check(CLI::Range(1, 100));
  cmd.add_option("--threads", o->threads, "training threads, 0 = all cores (default: the config's)")
      ->check(CLI::Range(0, 256));
  cmd.add_option("--precisions", o->precisions,
                 "training precisions measured in turn in every round, e.g. fp32 bf16 (the "
                 "ratio of the second to the first is printed; default: the config's "
                 "training.precision)")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  cmd.add_option("--work", o->work,
                 "directory for the synthetic samples, kept (default: a "
                 "temporary one, removed)")
      ->type_name("DIR");
  return [o] { return RunBenchTrain(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench_train, "bench-train",
                    "training-loop samples/s against raw forward+backward samples/s (same network "
                    "and batch size)",
                    SetupBenchTrain);

}  // namespace veletas::app
