// `veletas bench-train`: the speed of the real training loop (sampling from the window,
// augmentation, encoding in the loader thread, forward, losses, backward, optimiser step,
// metrics, training-state files) against the raw forward + backward rate of the same
// network and batch size (model/nn_bench.h TrainRate), in one run: a few rounds, each
// measuring the raw rate and then the loop right after it (so both see the same machine
// load), for about `seconds` in all.
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "app/config.h"
#include "model/model_files.h"
#include "model/nn_bench.h"
#include "rules/notation.h"
#include "training/synthetic_data.h"
#include "training/trainer.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;

struct BenchTrainArgs {
  std::string config;
  double seconds = 20.0;
  int rounds = 3;
  std::optional<int> threads;
  std::optional<std::string> work;
};

// The raw forward + backward rate of the config's network at its training threads, measured
// for at least `seconds` each time.
util::Result<std::unique_ptr<model::NnBench>> RawRate(const Config& c, double seconds) {
  model::NnBenchOptions o;
  o.net = c.model;
  o.net.threads = c.training.threads;
  o.rules = c.game.rules;
  o.size = c.game.size;
  o.min_seconds = seconds;
  return model::NnBench::Create(o);
}

// Synthetic sample files from random games in WORK/data and a fresh network WORK/init.ckpt.
util::Status PrepareWork(const Config& c, const fs::path& work) {
  std::error_code ec;
  fs::remove_all(work, ec);
  const int games_per_file = c.game.size == 7 ? 40 : 20;
  if (util::Status written =
          training::WriteRandomSampleFiles((work / "data").string(), "samples", 4, c.game.rules,
                                           c.game.size, games_per_file, 1, 0.5);
      !written.ok()) {
    return written;
  }
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  return model::CreateInitialCheckpoint((work / "init.ckpt").string(), spec, 1);
}

// One round's training loop: two warm-up steps (not timed, as TrainRate's) and about
// `seconds` of steps at the raw rate `raw`.
training::TrainResult TrainRound(const Config& c, const fs::path& work, int round, double raw,
                                 double seconds) {
  training::TrainRequest request;
  request.config = c.training;
  request.spec = model::ModelSpec{c.game.rules, c.game.size, c.model};
  request.device = c.model.device;
  request.input_checkpoint = (work / "init.ckpt").string();
  request.data = {(work / "data").string()};
  request.output_checkpoint = (work / ("out_" + std::to_string(round) + ".ckpt")).string();
  const int batch = c.training.batch_size;
  request.steps = 2 + std::max<int64_t>(3, static_cast<int64_t>(std::ceil(raw * seconds / batch)));
  return training::TrainGeneration(request);
}

// Rounds of (raw, loop) measured back to back, so that both see the same machine; prints a
// line per round and the summary.
util::Status MeasureRounds(const Config& c, model::NnBench& bench, const fs::path& work, int rounds,
                           double chunk) {
  fmt::print("{:>6} {:>14} {:>14} {:>8} {:>14} {:>10}\n", "round", "raw samples/s",
             "loop samples/s", "ratio", "loader wait s", "loop steps");
  double raw_sum = 0, loop_sum = 0;
  std::vector<double> ratios;
  for (int round = 0; round < rounds; ++round) {
    const double raw = bench.TrainRate(c.training.batch_size);
    const training::TrainResult result = TrainRound(c, work, round, raw, chunk);
    if (!result.ok()) return util::Status::Failure(result.error);
    const training::TrainStats& s = result.stats;
    const double ratio = s.loop_samples_per_second / raw;
    fmt::print("{:6} {:14.1f} {:14.1f} {:8.3f} {:14.3f} {:10}\n", round + 1, raw,
               s.loop_samples_per_second, ratio, s.loader_wait_seconds, s.steps - 2);
    std::fflush(stdout);
    raw_sum += raw;
    loop_sum += s.loop_samples_per_second;
    ratios.push_back(ratio);
  }
  std::sort(ratios.begin(), ratios.end());
  fmt::print("raw forward+backward (model::NnBench::TrainRate): {:.1f} samples/s (mean)\n",
             raw_sum / rounds);
  fmt::print(
      "training loop (window sampling, augmentation, encoding in the loader thread, "
      "forward+backward, optimiser step, metrics, checkpoints): {:.1f} samples/s (mean)\n",
      loop_sum / rounds);
  fmt::print("ratio loop / raw: {:.3f} (means), median of rounds {:.3f} (goal >= 0.9)\n",
             loop_sum / raw_sum, ratios[ratios.size() / 2]);
  return util::Ok();
}

int RunBenchTrain(const BenchTrainArgs& args) {
  auto config = LoadConfig(args.config);
  if (!config) return CommandError("bench-train", config.error_value());
  Config c = config.value();
  c.training.threads = args.threads.value_or(c.training.threads);
  const double chunk = args.seconds / (2.0 * args.rounds);  // per measurement
  auto bench = RawRate(c, chunk);
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
  util::Status measured = PrepareWork(c, work);
  if (measured.ok()) measured = MeasureRounds(c, *bench.value(), work, args.rounds, chunk);
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
