// The measurement of `veletas bench train`: the speed of the real training loop (sampling
// from the window, augmentation, encoding in the loader thread, forward, losses, backward,
// optimiser step, metrics, training-state files) against the raw forward + backward rate of
// the same network and batch size (model/nn_bench.h TrainRate), in rounds: each measures the
// raw rate and then the loop right after it, so that both see the same machine load.
// Torch-free header.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "model/base/checkpoint_file.h"
#include "model/nn_bench.h"
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

// `rounds` rounds, each measuring every precision of `precisions` in turn (interleaved, so
// that all see the same machine load): the raw rate, then the loop right after it, about
// `seconds` of training each, on the files of PrepareTrainBench. A precision this machine
// cannot run (ChooseTrainPrecision) is measured as what it falls back to, with its note.
// Prints a line per measurement and per precision a summary, and with two precisions the
// ratio of the second's loop samples/s to the first's (mean and per-round median), to `out`
// (flushed after each round). Errors: a training call failed (a failure).
util::Status MeasureTrainRounds(const TrainBenchSetup& setup, model::NnBench& bench,
                                const std::filesystem::path& work, int rounds, double seconds,
                                const std::vector<TrainPrecision>& precisions, std::ostream& out);

// How long and what `veletas bench train` measures, and where.
struct TrainBenchRun {
  double seconds = 20.0;  // in all: rounds x precisions x (raw rate + loop), evenly
  int rounds = 3;
  std::vector<TrainPrecision> precisions;  // empty: the setup's training.precision
  // The files of PrepareTrainBench, kept; unset: a temporary directory, removed.
  std::optional<std::filesystem::path> work;
};

// The whole of `veletas bench train`: a line naming the network, the game, the batch, the
// optimiser, the device and the intra-op threads, then MeasureTrainRounds on the files of
// PrepareTrainBench, to `out`. The work directory is removed afterwards unless `run.work`
// names it, and after an error. Errors (failures): the network cannot be built on its
// device, the files cannot be written, a training call failed.
util::Status RunTrainBench(const TrainBenchSetup& setup, const TrainBenchRun& run,
                           std::ostream& out);

}  // namespace veletas::training
