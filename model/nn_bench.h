// Network throughput measurements, shared by `veletas bench nn` and later benchmarks
// (self-play, training) that report their speed relative to the raw network's in the same
// run. Torch-free header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/base/net_config.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::model {

struct NnBenchOptions {
  NetConfig net;  // architecture, device and threads
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  double min_seconds = 1.0;  // each measurement runs at least this long (and 3 calls)
  uint64_t seed = 1;         // weights and positions
};

// The machine's peak arithmetic rate for a precision, from the instruction set and clock
// (not measured): cores x GHz (the highest "cpu MHz" in /proc/cpuinfo) x operations per
// cycle and core: with AVX-512 and two FMA units, fp32 64, bf16 128 (vdpbf16ps), int8 256
// (vpdpbusd); without AVX-512, half. 0 when the clock is unknown.
// kTorch and kAuto count as fp32.
double PeakGflops(InferencePrecision precision, int cores);

// How a training step runs (TrainRate): LibTorch's ops, with the forward pass under its
// autocast to bf16 or not (model/torch/autocast.h TrainingForward: convolutions and matrix
// products in bf16; weights, optimiser and losses in fp32), or the trunk through oneDNN's
// training primitives at fp32 or bf16 (model/torch/onednn_trunk.h), the heads in LibTorch.
struct TrainPath {
  bool onednn = false;
  bool bf16 = false;
};

// Seconds of the phases of training steps, summed (NnBench::ProfileTrainSteps).
struct NnBenchStepTimes {
  double data = 0, forward = 0, losses = 0, backward = 0, optimiser = 0;
};

// Builds a freshly initialised network and a pool of positions from seeded random games
// (every kind of sub-decision, setup included). Not thread-safe; one measurement at a time.
class NnBench {
 public:
  // Errors: the device is unavailable (e.g. "cuda" on a CPU-only build).
  static util::Result<std::unique_ptr<NnBench>> Create(const NnBenchOptions& options);
  ~NnBench();
  NnBench(const NnBench&) = delete;
  NnBench& operator=(const NnBench&) = delete;

  // Positions per second evaluated through NetworkEvaluator::Evaluate (feature encoding,
  // forward pass, softmax over legal actions) with `batch` positions per call.
  double EvalRate(int batch);
  // Training samples per second: encoding, forward, the losses of model/torch/losses.h,
  // backward and an SGD (momentum) step, `batch` samples per step, through `path`. On CUDA
  // the rate includes the queued kernels (synchronised). Errors (failures): the oneDNN trunk
  // cannot be built on this CPU.
  util::Result<double> TrainRate(int batch, const TrainPath& path = {});
  // Where the milliseconds of `steps` training steps as TrainRate's go (after 2 untimed
  // steps), as a table: the batch, forward, losses, backward, optimiser and, through the
  // oneDNN trunk, its primitives inside forward and backward. Timed with steady clocks (the
  // trunk waits on each primitive while timed). Errors: as TrainRate.
  util::Result<std::string> ProfileTrainSteps(int batch, const TrainPath& path, int steps);
  // Rebuilds the evaluator at inference precision `setting` (NetConfig::inference_precision)
  // and returns the precision it runs at ("fp32", "bf16", "int8", "torch"), which differs
  // from `setting` where the CPU lacks it. Errors: the evaluator cannot be built.
  util::Result<std::string> SetPrecision(const std::string& setting);
  // Multiply-adds x 2 of one evaluation on the benchmark's board (convolutions and fully
  // connected layers of the inference path; the aux head is not computed there).
  double FlopsPerEvaluation() const;
  // The device measured on ("cpu", "cuda:0") and Torch's intra-op thread count.
  std::string DeviceName() const;
  int Threads() const;

  struct Impl;
  explicit NnBench(std::unique_ptr<Impl> impl);

 private:
  struct Training;  // an optimiser, a target stream and the trunk of TrainPath
  util::Result<std::unique_ptr<Training>> StartTraining(const TrainPath& path);
  void StopTraining();
  // One step as TrainRate's; its phases added to `times` when not null.
  void TrainStep(int batch, Training& training, NnBenchStepTimes* times);

  std::unique_ptr<Impl> impl_;
};

}  // namespace veletas::model
