// The measurement of `veletas bench train`: the speed of the real training loop (sampling
// from the window, augmentation, encoding in the loader thread, forward, losses, backward,
// optimiser step, metrics, training-state files) against the raw forward + backward rate of
// the same network and batch size (model/nn_bench.h TrainRate), per training path (engine and
// precision), in rounds: each measures the raw rate and then the loop right after it, every
// path in turn, so that all see the same machine load.
// Torch-free header.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "model/base/checkpoint_file.h"
#include "model/nn_bench.h"
#include "training/train_precision.h"
#include "training/training_config.h"
#include "util/result.h"

namespace veletas::training {

// What is measured: the network (`spec.arch` with its device) trained with `training`.
struct TrainBenchSetup {
  TrainingConfig training;
  model::ModelSpec spec;
};

// The raw forward + backward rate of the network at the training's threads, measured for at
// least `seconds` each time. Errors: the network cannot be built on its device.
util::Result<std::unique_ptr<model::NnBench>> RawTrainBench(const TrainBenchSetup& setup,
                                                            double seconds);

// Synthetic sample files from random games in WORK/data and a fresh network WORK/init.ckpt
// (WORK is emptied first).
util::Status PrepareTrainBench(const TrainBenchSetup& setup, const std::filesystem::path& work);

// One training path measured: the engine and precision asked for.
struct TrainVariant {
  TrainEngine engine = TrainEngine::kTorch;
  TrainPrecision precision = TrainPrecision::kFp32;
};

// The variants `veletas bench train` measures by default: LibTorch fp32 (the reference), then
// the oneDNN path in fp32 where ChooseTrainEngine's auto would pick it (a CPU with AVX-512) and
// in bf16 where the CPU also has AVX-512 BF16; on a CUDA device LibTorch fp32 alone.
std::vector<TrainVariant> DefaultTrainVariants(bool on_cuda, const CpuFeatures& cpu);

// `rounds` rounds, each measuring every variant of `variants` in turn (interleaved, so that
// all see the same machine load): the raw rate, then the loop right after it, about `seconds`
// of training each, on the files of PrepareTrainBench. A variant this machine cannot run
// (ChooseTrainEngine) is measured as what it falls back to, with its note. Prints a line per
// measurement with an `x torch` column (the loop's samples/s over the LibTorch fp32 variant's
// of the same round, when that variant is listed first), and per variant a summary: means,
// GFLOP/s (3 forward passes per sample) and the x torch ratios of the loop and the raw step
// (means and per-round medians), to `out` (flushed after each measurement). Errors: a
// training call failed or the oneDNN trunk cannot be built (failures).
util::Status MeasureTrainRounds(const TrainBenchSetup& setup, model::NnBench& bench,
                                const std::filesystem::path& work, int rounds, double seconds,
                                const std::vector<TrainVariant>& variants, std::ostream& out);

// How long and what `veletas bench train` measures, and where.
struct TrainBenchRun {
  double seconds = 20.0;  // in all: rounds x variants x (raw rate + loop), evenly
  int rounds = 3;
  // The variants: every engine with every precision (LibTorch fp32 first, added where
  // missing, for the x torch column); both empty: DefaultTrainVariants; one empty: the
  // other with the config's engine or precision.
  std::vector<TrainEngine> engines;
  std::vector<TrainPrecision> precisions;
  // The files of PrepareTrainBench, kept; unset: a temporary directory, removed.
  std::optional<std::filesystem::path> work;
  // > 0: first, per variant, where the milliseconds of this many raw steps go
  // (model::NnBench::ProfileTrainSteps).
  int profile_steps = 0;
};

// The whole of `veletas bench train`: a line naming the network, the game, the batch, the
// optimiser, the device and the intra-op threads, the profiles of `run.profile_steps`, then
// MeasureTrainRounds on the files of PrepareTrainBench, to `out`. The work directory is removed
// afterwards unless `run.work` names it, and after an error. Errors (failures): the network cannot
// be built on its device, the files cannot be written, a training call failed.
util::Status RunTrainBench(const TrainBenchSetup& setup, const TrainBenchRun& run,
                           std::ostream& out);

}  // namespace veletas::training
