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

}  // namespace veletas::training
