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

PrecisionChoice ChooseTrainPrecision(TrainPrecision setting, TrainEngine engine, bool on_cuda,
                                     const CpuFeatures& cpu) {
  PrecisionChoice c;
  if (setting == TrainPrecision::kFp32) return c;
  if (setting == TrainPrecision::kAuto) {
    if (engine == TrainEngine::kOnednn && !on_cuda && cpu.avx512_bf16) {
      c.precision = TrainPrecision::kBf16;
      c.note =
          "training.precision auto: bf16 (a CPU with AVX-512 BF16: the oneDNN engine's "
          "convolutions in bf16, weights, batch norms and sums in fp32; training.precision "
          "fp32 keeps fp32)";
    } else if (engine == TrainEngine::kOnednn && !on_cuda) {
      c.note =
          "training.precision auto: fp32 (this CPU lacks AVX-512 BF16, avx512_bf16 in "
          "/proc/cpuinfo)";
    } else {
      c.note =
          "training.precision auto: fp32 (LibTorch's path; training.precision bf16 asks "
          "for its autocast)";
    }
    return c;
  }
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

// `engine` at ChooseTrainPrecision's precision for it, `note` first, then the precision's.
EngineChoice Choice(TrainEngine engine, TrainPrecision precision, bool on_cuda,
                    const CpuFeatures& cpu, std::string note) {
  const PrecisionChoice p = ChooseTrainPrecision(precision, engine, on_cuda, cpu);
  EngineChoice c;
  c.engine = engine;
  c.precision = p.precision;
  c.note = std::move(note);
  if (!p.note.empty()) c.note += (c.note.empty() ? "" : "\n") + p.note;
  return c;
}

}  // namespace

EngineChoice ChooseTrainEngine(TrainEngine engine, TrainPrecision precision, bool on_cuda,
                               const CpuFeatures& cpu) {
  const std::string name = TrainEngineName(engine);
  if (engine == TrainEngine::kTorch) {
    return Choice(TrainEngine::kTorch, precision, on_cuda, cpu, "");
  }
  if (on_cuda) {
    return Choice(TrainEngine::kTorch, precision, on_cuda, cpu,
                  "training.engine " + name +
                      ": torch (the device is CUDA; the oneDNN trunk runs on the CPU only)");
  }
  if (engine == TrainEngine::kOnednn) {
    return Choice(TrainEngine::kOnednn, precision, false, cpu, "");
  }
  if (!cpu.avx512) {
    return Choice(TrainEngine::kTorch, precision, on_cuda, cpu,
                  "training.engine auto: torch (this CPU lacks AVX-512, where the oneDNN trunk "
                  "was measured faster; training.engine onednn forces it)");
  }
  return Choice(TrainEngine::kOnednn, precision, false, cpu,
                "training.engine auto: onednn (a CPU with AVX-512: the network through oneDNN's "
                "training primitives and C++ heads)");
}

}  // namespace veletas::training
