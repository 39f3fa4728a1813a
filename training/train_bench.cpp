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

// The sums of one variant's measurements over the rounds.
struct VariantSums {
  EngineChoice used;  // after ChooseTrainEngine
  double raw = 0, loop = 0;
  std::vector<double> ratios;  // loop / raw of each round
  std::vector<double> loops;   // loop samples/s of each round
  std::vector<double> raws;    // raw samples/s of each round
  std::string Name() const {
    return fmt::format("{} {}", TrainEngineName(used.engine), TrainPrecisionName(used.precision));
  }
  bool Reference() const {
    return used.engine == TrainEngine::kTorch && used.precision == TrainPrecision::kFp32;
  }
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The summary lines: per variant its means and GFLOP/s, its ratio to the raw rate and,
// against the LibTorch fp32 variant when one was measured, the `x torch` ratios.
void PrintSummary(const std::vector<VariantSums>& sums, int rounds, double flops_per_sample,
                  std::ostream& out) {
  const VariantSums* reference = nullptr;
  for (const VariantSums& v : sums) {
    if (v.Reference() && reference == nullptr) reference = &v;
  }
  for (const VariantSums& v : sums) {
    out << fmt::format(
        "{}: raw forward+backward (model::NnBench::TrainRate) {:.1f} samples/s ({:.0f} GFLOP/s), "
        "training loop (window sampling, augmentation, encoding in the loader thread, "
        "forward+backward, optimiser step, metrics, checkpoints) {:.1f} samples/s ({:.0f} "
        "GFLOP/s) (means)\n",
        v.Name(), v.raw / rounds, v.raw / rounds * flops_per_sample / 1e9, v.loop / rounds,
        v.loop / rounds * flops_per_sample / 1e9);
    out << fmt::format(
        "{}: ratio loop / raw: {:.3f} (means), median of rounds {:.3f} (goal >= 0.9)\n", v.Name(),
        v.loop / v.raw, Median(v.ratios));
    if (reference == nullptr || &v == reference) continue;
    std::vector<double> loop_ratio, raw_ratio;
    for (int round = 0; round < rounds; ++round) {
      loop_ratio.push_back(v.loops[round] / reference->loops[round]);
      raw_ratio.push_back(v.raws[round] / reference->raws[round]);
    }
    out << fmt::format(
        "{}: x torch (against torch fp32 in the same rounds): loop {:.3f} (means), median of "
        "rounds {:.3f}; raw {:.3f} (means), median of rounds {:.3f}\n",
        v.Name(), v.loop / reference->loop, Median(loop_ratio), v.raw / reference->raw,
        Median(raw_ratio));
  }
}

// One round of one variant: the raw rate, then the loop; its line, and the sums.
util::Status MeasureVariant(const TrainBenchSetup& setup, model::NnBench& bench,
                            const fs::path& work, int round, double seconds, double reference_loop,
                            VariantSums& v, std::ostream& out) {
  const bool onednn = v.used.engine == TrainEngine::kOnednn;
  const auto raw = bench.TrainRate(setup.training.batch_size,
                                   {onednn, v.used.precision == TrainPrecision::kBf16});
  if (!raw) return util::Status::Failure(raw.error());
  TrainBenchSetup measured = setup;
  measured.training.precision = v.used.precision;
  measured.training.engine = v.used.engine;
  const std::string name = fmt::format("{}_{}_{}", round, TrainEngineName(v.used.engine),
                                       TrainPrecisionName(v.used.precision));
  const TrainResult result = TrainRound(measured, work, name, raw.value(), seconds);
  if (!result.ok()) return util::Status::Failure(result.error);
  const TrainStats& s = result.stats;
  if (s.engine != TrainEngineName(v.used.engine)) {
    return util::Status::Failure("the " + v.Name() + " training loop ran on " + s.engine);
  }
  const double ratio = s.loop_samples_per_second / raw.value();
  const double reference = v.Reference() ? s.loop_samples_per_second : reference_loop;
  const std::string x_torch =
      reference > 0 ? fmt::format("{:.3f}", s.loop_samples_per_second / reference) : "-";
  out << fmt::format("{:6} {:>12} {:14.1f} {:14.1f} {:8.3f} {:>8} {:14.3f} {:10}\n", round + 1,
                     v.Name(), raw.value(), s.loop_samples_per_second, ratio, x_torch,
                     s.loader_wait_seconds, s.steps - 2);
  out << std::flush;
  v.raw += raw.value();
  v.loop += s.loop_samples_per_second;
  v.ratios.push_back(ratio);
  v.loops.push_back(s.loop_samples_per_second);
  v.raws.push_back(raw.value());
  return util::Ok();
}

}  // namespace

std::vector<TrainVariant> DefaultTrainVariants(bool on_cuda, const CpuFeatures& cpu) {
  std::vector<TrainVariant> v{{TrainEngine::kTorch, TrainPrecision::kFp32}};
  if (on_cuda) return v;
  if (cpu.avx512) v.push_back({TrainEngine::kOnednn, TrainPrecision::kFp32});
  if (cpu.avx512 && cpu.avx512_bf16) v.push_back({TrainEngine::kOnednn, TrainPrecision::kBf16});
  return v;
}

util::Status MeasureTrainRounds(const TrainBenchSetup& setup, model::NnBench& bench,
                                const fs::path& work, int rounds, double seconds,
                                const std::vector<TrainVariant>& variants, std::ostream& out) {
  const bool cuda = bench.DeviceName().rfind("cuda", 0) == 0;
  std::vector<VariantSums> sums(variants.size());
  for (size_t i = 0; i < variants.size(); ++i) {
    sums[i].used = ChooseTrainEngine(variants[i].engine, variants[i].precision, cuda, ThisCpu());
    if (!sums[i].used.note.empty()) out << sums[i].used.note << "\n";
  }
  // Training costs about 3 forward passes per sample (forward, backward data and weights).
  const double flops_per_sample = 3.0 * bench.FlopsPerEvaluation();
  out << fmt::format("{:>6} {:>12} {:>14} {:>14} {:>8} {:>8} {:>14} {:>10}\n", "round", "engine",
                     "raw samples/s", "loop samples/s", "ratio", "x torch", "loader wait s",
                     "loop steps");
  for (int round = 0; round < rounds; ++round) {
    double reference_loop = 0;
    for (VariantSums& v : sums) {
      if (util::Status s =
              MeasureVariant(setup, bench, work, round, seconds, reference_loop, v, out);
          !s.ok()) {
        return s;
      }
      if (v.Reference() && reference_loop == 0) reference_loop = v.loops.back();
    }
  }
  PrintSummary(sums, rounds, flops_per_sample, out);
  return util::Ok();
}

namespace {

// The variants of `run` (TrainBenchRun::engines, ::precisions) for `config`.
std::vector<TrainVariant> Variants(const TrainBenchRun& run, const TrainingConfig& config,
                                   bool on_cuda) {
  if (run.engines.empty() && run.precisions.empty()) {
    return DefaultTrainVariants(on_cuda, ThisCpu());
  }
  const std::vector<TrainEngine> engines =
      run.engines.empty() ? std::vector<TrainEngine>{config.engine} : run.engines;
  const std::vector<TrainPrecision> precisions =
      run.precisions.empty() ? std::vector<TrainPrecision>{config.precision} : run.precisions;
  std::vector<TrainVariant> v;
  for (const TrainEngine e : engines) {
    for (const TrainPrecision p : precisions) v.push_back({e, p});
  }
  const TrainVariant reference{TrainEngine::kTorch, TrainPrecision::kFp32};
  if (v.front().engine != reference.engine || v.front().precision != reference.precision) {
    v.insert(v.begin(), reference);
  }
  return v;
}

}  // namespace

util::Status RunTrainBench(const TrainBenchSetup& setup, const TrainBenchRun& run,
                           std::ostream& out) {
  const bool cuda = setup.spec.arch.device == model::Device::kCuda;
  const std::vector<TrainVariant> variants = Variants(run, setup.training, cuda);
  const double chunk = run.seconds / (2.0 * run.rounds * static_cast<double>(variants.size()));
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
  for (int i = 0; run.profile_steps > 0 && i < static_cast<int>(variants.size()); ++i) {
    const EngineChoice used =
        ChooseTrainEngine(variants[i].engine, variants[i].precision, cuda, ThisCpu());
    auto profile = bench.value()->ProfileTrainSteps(
        setup.training.batch_size,
        {used.engine == TrainEngine::kOnednn, used.precision == TrainPrecision::kBf16},
        run.profile_steps);
    if (!profile) return util::Status::Failure(profile.error());
    out << fmt::format("profile of {} raw steps, {} {}:\n{}", run.profile_steps,
                       TrainEngineName(used.engine), TrainPrecisionName(used.precision),
                       profile.value());
    out.flush();
  }
  const fs::path work = run.work.value_or(fs::temp_directory_path() /
                                          ("veletas_bench_train_" + std::to_string(::getpid())));
  util::Status measured = PrepareTrainBench(setup, work);
  if (measured.ok()) {
    measured = MeasureTrainRounds(setup, *bench.value(), work, run.rounds, chunk, variants, out);
  }
  std::error_code ec;
  if (!run.work || !measured.ok()) fs::remove_all(work, ec);
  if (!measured.ok()) return util::Status::Failure(measured.error());
  return util::Ok();
}

}  // namespace veletas::training
