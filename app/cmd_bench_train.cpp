// `veletas bench-train`: the speed of the real training loop (sampling from the window,
// augmentation, encoding in the loader thread, forward, losses, backward, optimiser step,
// metrics, training-state files) against the raw forward + backward rate of the same
// network and batch size (model/nn_bench.h TrainRate), in one run: a few rounds, each
// measuring the raw rate and then the loop right after it (so both see the same machine
// load), for about `seconds` in all.
#include <unistd.h>

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

int RunBenchTrain(const BenchTrainArgs& args) {
  auto config = LoadConfig(args.config);
  if (!config) {
    std::cerr << "veletas bench-train: " << config.error() << "\n";
    return 2;
  }
  Config c = config.value();
  c.training.threads = args.threads.value_or(c.training.threads);
  const int batch = c.training.batch_size;
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};

  // Raw rate: the same network, batch size and thread count.
  model::NnBenchOptions o;
  o.net = c.model;
  o.net.threads = c.training.threads;
  o.rules = c.game.rules;
  o.size = c.game.size;
  const int rounds = args.rounds;
  const double chunk = args.seconds / (2.0 * rounds);  // per measurement
  o.min_seconds = chunk;
  auto bench = model::NnBench::Create(o);
  if (!bench) {
    std::cerr << "veletas bench-train: " << bench.error() << "\n";
    return 1;
  }
  std::printf(
      "network: %d blocks x %d channels (heads %d, value %d); %s %dx%d; batch %d; optimizer %s; "
      "device %s; intra-op threads %d\n",
      c.model.blocks, c.model.channels, c.model.head_channels, c.model.value_hidden,
      rules::RuleSetName(c.game.rules), c.game.size, c.game.size, batch,
      c.training.optimizer == training::Optimizer::kAdamW ? "adamw" : "sgd",
      bench.value()->DeviceName().c_str(), bench.value()->Threads());
  std::fflush(stdout);

  // Synthetic sample files from random games, and a fresh network.
  const fs::path work = args.work.value_or(
      (fs::temp_directory_path() / ("veletas_bench_train_" + std::to_string(::getpid()))).string());
  std::error_code ec;
  fs::remove_all(work, ec);
  const int games_per_file = c.game.size == 7 ? 40 : 20;
  if (util::Status written =
          training::WriteRandomSampleFiles((work / "data").string(), "samples", 4, c.game.rules,
                                           c.game.size, games_per_file, 1, 0.5);
      !written.ok()) {
    std::cerr << "veletas bench-train: " << written.error() << "\n";
    return 1;
  }
  const std::string init = (work / "init.ckpt").string();
  if (auto s = model::CreateInitialCheckpoint(init, spec, 1); !s) {
    std::cerr << "veletas bench-train: " << s.error() << "\n";
    return 1;
  }

  // Rounds of (raw, loop) measured back to back, so that both see the same machine.
  std::printf("%6s %14s %14s %8s %14s %10s\n", "round", "raw samples/s", "loop samples/s", "ratio",
              "loader wait s", "loop steps");
  double raw_sum = 0, loop_sum = 0;
  std::vector<double> ratios;
  for (int round = 0; round < rounds; ++round) {
    const double raw = bench.value()->TrainRate(batch);
    training::TrainRequest request;
    request.config = c.training;
    request.spec = spec;
    request.device = c.model.device;
    request.input_checkpoint = init;
    request.data = {(work / "data").string()};
    request.output_checkpoint = (work / ("out_" + std::to_string(round) + ".ckpt")).string();
    // Two warm-up steps (not timed, as TrainRate's) and about `chunk` seconds of steps.
    request.steps = 2 + std::max<int64_t>(3, static_cast<int64_t>(std::ceil(raw * chunk / batch)));
    const training::TrainResult result = training::TrainGeneration(request);
    if (!result.ok()) {
      std::cerr << "veletas bench-train: " << result.error << "\n";
      fs::remove_all(work, ec);
      return 1;
    }
    const training::TrainStats& s = result.stats;
    const double ratio = s.loop_samples_per_second / raw;
    std::printf("%6d %14.1f %14.1f %8.3f %14.3f %10lld\n", round + 1, raw,
                s.loop_samples_per_second, ratio, s.loader_wait_seconds,
                static_cast<long long>(s.steps - 2));
    std::fflush(stdout);
    raw_sum += raw;
    loop_sum += s.loop_samples_per_second;
    ratios.push_back(ratio);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("raw forward+backward (model::NnBench::TrainRate): %.1f samples/s (mean)\n",
              raw_sum / rounds);
  std::printf(
      "training loop (window sampling, augmentation, encoding in the loader thread, "
      "forward+backward, optimiser step, metrics, checkpoints): %.1f samples/s (mean)\n",
      loop_sum / rounds);
  std::printf("ratio loop / raw: %.3f (means), median of rounds %.3f (goal >= 0.9)\n",
              loop_sum / raw_sum, ratios[ratios.size() / 2]);
  if (!args.work) fs::remove_all(work, ec);
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
