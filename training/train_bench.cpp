#include "training/train_bench.h"

#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/torch/model_files.h"
#include "rules/notation.h"
#include "training/synthetic_data.h"
#include "training/train_precision.h"
#include "training/trainer.h"

namespace veletas::training {
namespace {

namespace fs = std::filesystem;

// One measurement's training loop (output out_<name>.ckpt): two warm-up steps (not timed, as
// TrainRate's) and about `seconds` of steps at the raw rate `raw`.
TrainResult TrainRound(const TrainBenchSetup& setup, const fs::path& work, const std::string& name,
                       double raw, double seconds) {
  TrainRequest request;
  request.config = setup.training;
  request.spec = setup.spec;
  request.device = setup.spec.arch.device;
  request.input_checkpoint = (work / "init.ckpt").string();
  request.data = {(work / "data").string()};
  request.output_checkpoint = (work / ("out_" + name + ".ckpt")).string();
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

namespace {

// The sums of one precision's measurements over the rounds.
struct PrecisionSums {
  TrainPrecision used = TrainPrecision::kFp32;  // after ChooseTrainPrecision
  double raw = 0, loop = 0;
  std::vector<double> ratios;  // loop / raw of each round
  std::vector<double> loops;   // loop samples/s of each round
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

util::Status MeasureTrainRounds(const TrainBenchSetup& setup, model::NnBench& bench,
                                const fs::path& work, int rounds, double seconds,
                                const std::vector<TrainPrecision>& precisions, std::ostream& out) {
  const bool cuda = bench.DeviceName().rfind("cuda", 0) == 0;
  std::vector<PrecisionSums> sums(precisions.size());
  for (size_t i = 0; i < precisions.size(); ++i) {
    const PrecisionChoice choice = ChooseTrainPrecision(precisions[i], cuda, ThisCpu());
    if (!choice.note.empty()) out << choice.note << "\n";
    sums[i].used = choice.precision;
  }
  out << fmt::format("{:>6} {:>9} {:>14} {:>14} {:>8} {:>14} {:>10}\n", "round", "precision",
                     "raw samples/s", "loop samples/s", "ratio", "loader wait s", "loop steps");
  for (int round = 0; round < rounds; ++round) {
    for (PrecisionSums& p : sums) {
      const bool bf16 = p.used == TrainPrecision::kBf16;
      const double raw = bench.TrainRate(setup.training.batch_size, bf16);
      TrainBenchSetup measured = setup;
      measured.training.precision = p.used;
      const TrainResult result = TrainRound(
          measured, work, fmt::format("{}_{}", round, TrainPrecisionName(p.used)), raw, seconds);
      if (!result.ok()) return util::Status::Failure(result.error);
      const TrainStats& s = result.stats;
      const double ratio = s.loop_samples_per_second / raw;
      out << fmt::format("{:6} {:>9} {:14.1f} {:14.1f} {:8.3f} {:14.3f} {:10}\n", round + 1,
                         s.precision, raw, s.loop_samples_per_second, ratio, s.loader_wait_seconds,
                         s.steps - 2);
      out << std::flush;
      p.raw += raw;
      p.loop += s.loop_samples_per_second;
      p.ratios.push_back(ratio);
      p.loops.push_back(s.loop_samples_per_second);
    }
  }
  for (const PrecisionSums& p : sums) {
    const char* name = TrainPrecisionName(p.used);
    out << fmt::format(
        "{}: raw forward+backward (model::NnBench::TrainRate) {:.1f} samples/s, training loop "
        "(window sampling, augmentation, encoding in the loader thread, forward+backward, "
        "optimiser step, metrics, checkpoints) {:.1f} samples/s (means)\n",
        name, p.raw / rounds, p.loop / rounds);
    out << fmt::format(
        "{}: ratio loop / raw: {:.3f} (means), median of rounds {:.3f} (goal >= 0.9)\n", name,
        p.loop / p.raw, Median(p.ratios));
  }
  if (sums.size() == 2) {
    std::vector<double> per_round;
    for (int round = 0; round < rounds; ++round) {
      per_round.push_back(sums[1].loops[round] / sums[0].loops[round]);
    }
    out << fmt::format(
        "loop samples/s {} / {}: {:.3f} (means), median of rounds {:.3f}; raw {:.3f} (means)\n",
        TrainPrecisionName(sums[1].used), TrainPrecisionName(sums[0].used),
        sums[1].loop / sums[0].loop, Median(per_round), sums[1].raw / sums[0].raw);
  }
  return util::Ok();
}

util::Status RunTrainBench(const TrainBenchSetup& setup, const TrainBenchRun& run,
                           std::ostream& out) {
  std::vector<TrainPrecision> precisions = run.precisions;
  if (precisions.empty()) precisions.push_back(setup.training.precision);
  const double chunk = run.seconds / (2.0 * run.rounds * static_cast<double>(precisions.size()));
  auto bench = RawTrainBench(setup, chunk);
  if (!bench) return util::Status::Failure(bench.error());
  const model::NetConfig& net = setup.spec.arch;
  out << fmt::format(
      "network: {} blocks x {} channels (heads {}, value {}); {} {}x{}; batch {}; optimizer {}; "
      "device {}; intra-op threads {}\n",
      net.blocks, net.channels, net.head_channels, net.value_hidden,
      rules::RuleSetName(setup.spec.rules), setup.spec.size, setup.spec.size,
      setup.training.batch_size, setup.training.optimizer == Optimizer::kAdamW ? "adamw" : "sgd",
      bench.value()->DeviceName(), bench.value()->Threads());
  out.flush();
  const fs::path work = run.work.value_or(fs::temp_directory_path() /
                                          ("veletas_bench_train_" + std::to_string(::getpid())));
  util::Status measured = PrepareTrainBench(setup, work);
  if (measured.ok()) {
    measured = MeasureTrainRounds(setup, *bench.value(), work, run.rounds, chunk, precisions, out);
  }
  std::error_code ec;
  if (!run.work || !measured.ok()) fs::remove_all(work, ec);
  if (!measured.ok()) return util::Status::Failure(measured.error());
  return util::Ok();
}

}  // namespace veletas::training
