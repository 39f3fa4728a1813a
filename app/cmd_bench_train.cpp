// `veletas bench-train`: the speed of the real training loop (sampling from the window,
// augmentation, encoding in the loader thread, forward, losses, backward, optimiser step,
// metrics, training-state files) against the raw forward + backward rate of the same
// network and batch size (model/nn_bench.h TrainRate), in one run. The raw rate is measured
// before and after the loop and averaged, which evens out slow drifts of the machine.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "app/args.h"
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

int RunBenchTrain(const std::vector<std::string>& argv) {
  auto parsed =
      ParseArgs({{"config", true}, {"seconds", true}, {"threads", true}, {"work", true}}, argv, 0);
  if (!parsed) return UsageError("bench-train", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto config_path = args.Value("config");
  if (!config_path) return UsageError("bench-train", "expected --config FILE");
  auto seconds = args.Real("seconds", 10.0, 0.1, 3600.0);
  if (!seconds) return UsageError("bench-train", seconds.error());
  auto config = LoadConfig(*config_path);
  if (!config) {
    std::cerr << "veletas bench-train: " << config.error() << "\n";
    return 2;
  }
  Config c = config.value();
  auto threads = args.Int("threads", c.training.threads, 0, 256);
  if (!threads) return UsageError("bench-train", threads.error());
  c.training.threads = static_cast<int>(threads.value());
  const int batch = c.training.batch_size;
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};

  // Raw rate: the same network and batch size, the same thread count.
  model::NnBenchOptions o;
  o.net = c.model;
  o.net.threads = c.training.threads;
  o.rules = c.game.rules;
  o.size = c.game.size;
  o.min_seconds = std::max(1.0, seconds.value() / 4);
  auto bench = model::NnBench::Create(o);
  if (!bench) {
    std::cerr << "veletas bench-train: " << bench.error() << "\n";
    return 1;
  }
  std::printf(
      "network: %d blocks x %d channels (heads %d, value %d); %s %dx%d; batch %d; "
      "device %s; intra-op threads %d\n",
      c.model.blocks, c.model.channels, c.model.head_channels, c.model.value_hidden,
      rules::RuleSetName(c.game.rules), c.game.size, c.game.size, batch,
      bench.value()->DeviceName().c_str(), bench.value()->Threads());
  std::fflush(stdout);
  const double raw_before = bench.value()->TrainRate(batch);
  std::printf("raw forward+backward (model::NnBench::TrainRate): %.0f samples/s\n", raw_before);
  std::fflush(stdout);

  // Synthetic sample files from random games, and a fresh network.
  const fs::path work = args.Value("work").value_or(
      (fs::temp_directory_path() / ("veletas_bench_train_" + std::to_string(::getpid()))).string());
  std::error_code ec;
  fs::remove_all(work, ec);
  const int games_per_file = c.game.size == 7 ? 40 : 20;
  if (std::string err =
          training::WriteRandomSampleFiles((work / "data").string(), "samples", 4, c.game.rules,
                                           c.game.size, games_per_file, 1, 0.5);
      !err.empty()) {
    std::cerr << "veletas bench-train: " << err << "\n";
    return 1;
  }
  const std::string init = (work / "init.ckpt").string();
  if (auto s = model::CreateInitialCheckpoint(init, spec, 1); !s) {
    std::cerr << "veletas bench-train: " << s.error() << "\n";
    return 1;
  }
  training::TrainRequest request;
  request.config = c.training;
  request.spec = spec;
  request.device = c.model.device;
  request.input_checkpoint = init;
  request.data = {(work / "data").string()};
  request.output_checkpoint = (work / "out.ckpt").string();
  request.plot_path = "-";
  request.steps =
      2 +
      std::max<int64_t>(10, static_cast<int64_t>(std::ceil(raw_before * seconds.value() / batch)));
  const training::TrainResult result = training::TrainGeneration(request);
  if (!result.ok()) {
    std::cerr << "veletas bench-train: " << result.error << "\n";
    fs::remove_all(work, ec);
    return 1;
  }
  const training::TrainStats& s = result.stats;
  std::printf(
      "training loop (window sampling, augmentation, encoding, forward+backward, "
      "optimiser, metrics, checkpoints): %.0f samples/s over %lld steps; loader wait "
      "%.2f s; window %lld samples\n",
      s.loop_samples_per_second, static_cast<long long>(s.steps - 2), s.loader_wait_seconds,
      static_cast<long long>(s.window_samples));
  std::fflush(stdout);
  const double raw_after = bench.value()->TrainRate(batch);
  const double raw = 0.5 * (raw_before + raw_after);
  std::printf("raw forward+backward again: %.0f samples/s (mean %.0f)\n", raw_after, raw);
  std::printf("ratio loop / raw: %.3f (goal >= 0.9)\n", s.loop_samples_per_second / raw);
  if (!args.Has("work")) fs::remove_all(work, ec);
  return 0;
}

}  // namespace

VELETAS_COMMAND(bench_train, "bench-train",
                "--config FILE [--seconds S] [--threads T] [--work DIR]",
                "training-loop samples/s against raw forward+backward samples/s (same network "
                "and batch size)",
                RunBenchTrain);

}  // namespace veletas::app
