// The training precision and engine settings (TrainingConfig::precision, ::engine): their
// names and the choice of what a run actually uses on this machine, a pure function of the
// settings, the device and the CPU's features. Torch-free.
#pragma once

#include <string>

#include "training/training_config.h"

namespace veletas::training {

// "auto", "fp32" or "bf16", as in the config.
const char* TrainPrecisionName(TrainPrecision p);

// The CPU features the choice looks at (ThisCpu() here; tests inject their own).
struct CpuFeatures {
  bool avx512_bf16 = false;  // the AVX-512 BF16 instructions (avx512_bf16 in /proc/cpuinfo)
  bool avx512 = false;       // AVX-512 F, BW, VL and DQ (oneDNN's avx512_core)
};

// The features of the CPU this process runs on.
CpuFeatures ThisCpu();

struct PrecisionChoice {
  TrainPrecision precision = TrainPrecision::kFp32;  // what the run uses
  // One line when the setting is not honoured (why) or is kAuto (what it chose and why),
  // else empty.
  std::string note;
};

// The precision a training run on `engine` (kOnednn or kTorch, as chosen) uses for `setting`:
// fp32 stays fp32; bf16 runs as bf16 on a CUDA device and on a CPU with AVX-512 BF16; on a
// CPU without it, fp32 with a note (oneDNN would otherwise emulate bf16, slower than fp32).
// kAuto: bf16 on kOnednn on a CPU with AVX-512 BF16 (measured faster at equal strength,
// docs/RESULTS.md), else fp32 (LibTorch's path stays the fp32 reference, also on CUDA where
// bf16 was not measured); its note says which and why.
PrecisionChoice ChooseTrainPrecision(TrainPrecision setting, TrainEngine engine, bool on_cuda,
                                     const CpuFeatures& cpu);

// "auto", "onednn" or "torch", as in the config.
const char* TrainEngineName(TrainEngine e);

// What a training run uses: the engine (kOnednn or kTorch, never kAuto) and its precision.
struct EngineChoice {
  TrainEngine engine = TrainEngine::kTorch;
  TrainPrecision precision = TrainPrecision::kFp32;
  // The lines to print once: what kAuto chose and why, and why a setting is not honoured
  // (an engine or precision this device or CPU lacks); empty when the settings run as set.
  std::string note;
};

// The engine and precision a training run uses for the settings `engine` and `precision`:
// kTorch is LibTorch at ChooseTrainPrecision's precision. kOnednn runs on the CPU (on a CUDA
// device: kTorch with a note) at ChooseTrainPrecision's precision (bf16 on a CPU with AVX-512
// BF16, else fp32 with a note). kAuto: kOnednn on a CPU with AVX-512 (where it was measured
// faster, docs/RESULTS.md), else kTorch; its note says which and why. Whether oneDNN then builds
// the primitives (not only reference code) is checked when the run starts (OnednnTrunk::Create).
EngineChoice ChooseTrainEngine(TrainEngine engine, TrainPrecision precision, bool on_cuda,
                               const CpuFeatures& cpu);

}  // namespace veletas::training
