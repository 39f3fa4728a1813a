// `veletas bench train`: the speed of the real training loop against the raw forward +
// backward rate of the same network and batch size, in one run of a few rounds
// (training/train_bench.h RunTrainBench), every training path in turn in each round (by
// default LibTorch fp32 and the oneDNN trunk at each precision the CPU has; `--engines` and
// `--precisions` choose), with an `x torch` column against LibTorch fp32 in the same round.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "config/config.h"
#include "training/train_bench.h"

namespace veletas::app {
namespace {

struct BenchTrainArgs {
  std::string config;
  std::optional<int> threads;
  std::optional<std::string> work;
  std::vector<std::string> precisions;
  std::vector<std::string> engines;
  training::TrainBenchRun run;
};

int RunBenchTrain(const BenchTrainArgs& args) {
  auto config = config::LoadConfig(args.config);
  if (!config) return CommandError("bench train", config.error_value());
  config::Config c = config.value();
  c.training.threads = args.threads.value_or(c.training.threads);
  training::TrainBenchRun run = args.run;
  for (const std::string& p : args.precisions) {
    run.precisions.push_back(
        *util::ChoiceValue<training::TrainPrecision>(training::kTrainPrecisionChoices, p));
  }
  for (const std::string& e : args.engines) {
    run.engines.push_back(
        *util::ChoiceValue<training::TrainEngine>(training::kTrainEngineChoices, e));
  }
  if (args.work) run.work = *args.work;
  const training::TrainBenchSetup setup{c.training, {c.game.rules, c.game.size, c.model}};
  if (util::Status s = training::RunTrainBench(setup, run, std::cout); !s.ok()) {
    return CommandError("bench train", s.error_value());
  }
  return 0;
}

CommandRun SetupBenchTrain(CLI::App& cmd) {
  auto o = std::make_shared<BenchTrainArgs>();
  AddRequiredConfig(cmd, o->config, "config whose game, model and training apply");
  cmd.add_option("--seconds", o->run.seconds, "total measuring time")
      ->check(CLI::Range(0.1, 3600.0));
  cmd.add_option("--rounds", o->run.rounds, "alternating rounds of both measurements")
      ->check(CLI::Range(1, 100));
  cmd.add_option("--threads", o->threads, "training threads, 0 = all cores (default: the config's)")
      ->check(CLI::Range(0, 256));
  cmd.add_option("--engines", o->engines,
                 "training engines measured in turn in every round, each at every precision "
                 "of --precisions, e.g. torch onednn (default: torch fp32, then onednn at "
                 "each precision this CPU runs fast; torch fp32 is always measured first, for "
                 "the x torch column)")
      ->check(
          CLI::IsMember(util::ChoiceNames<training::TrainEngine>(training::kTrainEngineChoices)));
  cmd.add_option("--precisions", o->precisions,
                 "training precisions measured with every engine, e.g. fp32 bf16 (default: see "
                 "--engines; with --engines alone, the config's training.precision)")
      ->check(CLI::IsMember(
          util::ChoiceNames<training::TrainPrecision>(training::kTrainPrecisionChoices)));
  cmd.add_option("--profile", o->run.profile_steps,
                 "first print, per training path, where the milliseconds of this many raw "
                 "steps go (batch, forward, losses, backward, optimiser; the oneDNN trunk's "
                 "primitives)")
      ->check(CLI::Range(1, 10000));
  cmd.add_option("--work", o->work,
                 "directory for the synthetic samples, kept (default: a "
                 "temporary one, removed)")
      ->type_name("DIR");
  return [o] { return RunBenchTrain(*o); };
}

}  // namespace

VELETAS_CLI_PART(bench_train, "bench", "train",
                 "training-loop samples/s against raw forward+backward samples/s (same network "
                 "and batch size)",
                 SetupBenchTrain);

}  // namespace veletas::app
