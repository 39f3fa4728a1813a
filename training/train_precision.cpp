#include "training/train_precision.h"

namespace veletas::training {

const char* TrainPrecisionName(TrainPrecision p) {
  return util::ChoiceName<TrainPrecision>(kTrainPrecisionChoices, p);
}

CpuFeatures ThisCpu() {
  CpuFeatures f;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  f.avx512_bf16 = __builtin_cpu_supports("avx512bf16");
  f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#endif
  return f;
}

PrecisionChoice ChooseTrainPrecision(TrainPrecision setting, bool on_cuda, const CpuFeatures& cpu) {
  PrecisionChoice c;
  if (setting == TrainPrecision::kFp32) return c;
  if (on_cuda || cpu.avx512_bf16) {
    c.precision = TrainPrecision::kBf16;
    return c;
  }
  c.note =
      "training.precision bf16: this CPU lacks AVX-512 BF16 (avx512_bf16 in /proc/cpuinfo); "
      "training in fp32";
  return c;
}

const char* TrainEngineName(TrainEngine e) {
  return util::ChoiceName<TrainEngine>(kTrainEngineChoices, e);
}

namespace {

// kOnednn, in fp32: its bf16 path's gradients do not agree with LibTorch's yet (the aux head's
// first layer on 10x10 differs 7-13% where LibTorch's own bf16 autocast differs 1-2%,
// tests/model/onednn_trunk_test.cpp), so bf16 is refused with a note.
EngineChoice Onednn(TrainPrecision precision, std::string note) {
  EngineChoice c;
  c.engine = TrainEngine::kOnednn;
  c.note = std::move(note);
  if (precision == TrainPrecision::kBf16) {
    if (!c.note.empty()) c.note += "\n";
    c.note +=
        "training.precision bf16: the oneDNN trunk trains in fp32 (its bf16 gradients do not "
        "yet agree with LibTorch's; docs/RESULTS.md, issue 45); training.engine torch runs "
        "bf16 autocast";
  }
  return c;
}

// kTorch at ChooseTrainPrecision's precision, `note` first.
EngineChoice Torch(TrainPrecision precision, bool on_cuda, const CpuFeatures& cpu,
                   std::string note) {
  const PrecisionChoice p = ChooseTrainPrecision(precision, on_cuda, cpu);
  EngineChoice c;
  c.precision = p.precision;
  c.note = std::move(note);
  if (!p.note.empty()) c.note += (c.note.empty() ? "" : "\n") + p.note;
  return c;
}

}  // namespace

EngineChoice ChooseTrainEngine(TrainEngine engine, TrainPrecision precision, bool on_cuda,
                               const CpuFeatures& cpu) {
  const std::string name = TrainEngineName(engine);
  if (engine == TrainEngine::kTorch) return Torch(precision, on_cuda, cpu, "");
  if (on_cuda) {
    return Torch(precision, on_cuda, cpu,
                 "training.engine " + name +
                     ": torch (the device is CUDA; the oneDNN trunk runs on the CPU only)");
  }
  if (engine == TrainEngine::kOnednn) return Onednn(precision, "");
  if (!cpu.avx512) {
    return Torch(precision, on_cuda, cpu,
                 "training.engine auto: torch (this CPU lacks AVX-512, where the oneDNN trunk "
                 "was measured faster; training.engine onednn forces it)");
  }
  return Onednn(precision,
                "training.engine auto: onednn (a CPU with AVX-512: the trunk through oneDNN's "
                "training primitives, fp32)");
}

}  // namespace veletas::training
