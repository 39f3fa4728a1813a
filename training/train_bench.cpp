#include "training/train_bench.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/model_files.h"
#include "training/synthetic_data.h"
#include "training/trainer.h"

namespace veletas::training {
namespace {

namespace fs = std::filesystem;

// One round's training loop: two warm-up steps (not timed, as TrainRate's) and about
// `seconds` of steps at the raw rate `raw`.
TrainResult TrainRound(const TrainBenchSetup& setup, const fs::path& work, int round, double raw,
                       double seconds) {
  TrainRequest request;
  request.config = setup.training;
  request.spec = setup.spec;
  request.device = setup.spec.arch.device;
  request.input_checkpoint = (work / "init.ckpt").string();
  request.data = {(work / "data").string()};
  request.output_checkpoint = (work / ("out_" + std::to_string(round) + ".ckpt")).string();
  const int batch = setup.training.batch_size;
  request.steps = 2 + std::max<int64_t>(3, static_cast<int64_t>(std::ceil(raw * seconds / batch)));
  return TrainGeneration(request);
}

}  // namespace

util::Result<std::unique_ptr<model::NnBench>> RawTrainBench(const TrainBenchSetup& setup,
                                                            double seconds) {
  model::NnBenchOptions o;
  o.net = setup.spec.arch;
  o.net.threads = setup.training.threads;
  o.rules = setup.spec.rules;
  o.size = setup.spec.size;
  o.min_seconds = seconds;
  return model::NnBench::Create(o);
}

util::Status PrepareTrainBench(const TrainBenchSetup& setup, const fs::path& work) {
  std::error_code ec;
  fs::remove_all(work, ec);
  const int games_per_file = setup.spec.size == 7 ? 40 : 20;
  if (util::Status written =
          training::WriteRandomSampleFiles((work / "data").string(), "samples", 4, setup.spec.rules,
                                           setup.spec.size, games_per_file, 1, 0.5);
      !written.ok()) {
    return written;
  }
  return model::CreateInitialCheckpoint((work / "init.ckpt").string(), setup.spec, 1);
}

util::Status MeasureTrainRounds(const TrainBenchSetup& setup, model::NnBench& bench,
                                const fs::path& work, int rounds, double seconds,
                                std::ostream& out) {
  out << fmt::format("{:>6} {:>14} {:>14} {:>8} {:>14} {:>10}\n", "round", "raw samples/s",
                     "loop samples/s", "ratio", "loader wait s", "loop steps");
  double raw_sum = 0, loop_sum = 0;
  std::vector<double> ratios;
  for (int round = 0; round < rounds; ++round) {
    const double raw = bench.TrainRate(setup.training.batch_size);
    const TrainResult result = TrainRound(setup, work, round, raw, seconds);
    if (!result.ok()) return util::Status::Failure(result.error);
    const TrainStats& s = result.stats;
    const double ratio = s.loop_samples_per_second / raw;
    out << fmt::format("{:6} {:14.1f} {:14.1f} {:8.3f} {:14.3f} {:10}\n", round + 1, raw,
                       s.loop_samples_per_second, ratio, s.loader_wait_seconds, s.steps - 2);
    out << std::flush;
    raw_sum += raw;
    loop_sum += s.loop_samples_per_second;
    ratios.push_back(ratio);
  }
  std::sort(ratios.begin(), ratios.end());
  out << fmt::format("raw forward+backward (model::NnBench::TrainRate): {:.1f} samples/s (mean)\n",
                     raw_sum / rounds);
  out << fmt::format(
      "training loop (window sampling, augmentation, encoding in the loader thread, "
      "forward+backward, optimiser step, metrics, checkpoints): {:.1f} samples/s (mean)\n",
      loop_sum / rounds);
  out << fmt::format("ratio loop / raw: {:.3f} (means), median of rounds {:.3f} (goal >= 0.9)\n",
                     loop_sum / raw_sum, ratios[ratios.size() / 2]);
  return util::Ok();
}

}  // namespace veletas::training
