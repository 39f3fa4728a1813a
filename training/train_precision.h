// The training precision setting (TrainingConfig::precision): its names and the choice of
// the precision a run actually uses on this machine. Torch-free.
#pragma once

#include <string>

#include "training/training_config.h"

namespace veletas::training {

// "fp32" or "bf16", as in the config.
const char* TrainPrecisionName(TrainPrecision p);

// The CPU features the choice looks at (ThisCpu() here; tests inject their own).
struct CpuFeatures {
  bool avx512_bf16 = false;  // the AVX-512 BF16 instructions (avx512_bf16 in /proc/cpuinfo)
};

// The features of the CPU this process runs on.
CpuFeatures ThisCpu();

struct PrecisionChoice {
  TrainPrecision precision = TrainPrecision::kFp32;  // what the run uses
  std::string note;  // one line when the setting is not honoured (why), else empty
};

// The precision a training run uses for `setting`: fp32 stays fp32; bf16 runs as bf16 on a
// CUDA device and on a CPU with AVX-512 BF16; on a CPU without it, fp32 with a note (oneDNN
// would otherwise emulate bf16, slower than fp32).
PrecisionChoice ChooseTrainPrecision(TrainPrecision setting, bool on_cuda, const CpuFeatures& cpu);

}  // namespace veletas::training
