// The network's CPU inference engine: the folded weights (model/onednn/inference_weights.h) run
// through oneDNN directly, made for inference. Torch-free.
//
// Why an engine of its own: LibTorch 1.13 runs each convolution on plain NCHW tensors with
// reorders in and out, in training form, then separate batch-norm and mask passes and the
// unused aux head (slower at batch 64 than at batch 8; docs/RESULTS.md has the figures). The
// training path stays LibTorch. Layouts by measurement: fp32 and bf16 use blocked nChw16c
// (jit:avx512_core); int8 uses nhwc (oneDNN's int8 nChw16c kernels are reference code) with
// u8 activations, s8 per-channel weights and per-layer activation scales calibrated on the
// network's own games at every load (model/onednn/cpu_network.h). `auto` takes the fastest
// precision the CPU has whose outputs agree with fp32: int8 (VNNI), then bf16 (AVX-512
// BF16), then fp32, the order measured by `veletas bench nn` (docs/RESULTS.md).
//
// Per forward pass: the planes are reordered once into the trunk's layout and precision;
// every convolution carries its bias (batch norm folded), ReLU and, for the second
// convolution of a residual block, the residual addition as oneDNN post-ops, writing in
// place; the two 1x1 head convolutions run as one; the small heads (policy logits, pass,
// value) run in plain C++. Each batch is evaluated on a canvas of its own board size, so no
// mask is ever needed (a padded board gives the same outputs, model/torch/network.h). Primitives
// and buffers are created once per (batch bucket, board size) and reused; a call pads its
// batch up to the bucket (see BatchBucket).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/base/net_config.h"
#include "model/onednn/inference_weights.h"
#include "util/result.h"

namespace veletas::model {

// The precisions this engine runs (of model::InferencePrecision, net_config.h).
enum class Precision { kFp32, kBf16, kInt8 };

// The same as a model::InferencePrecision (kFp32, kBf16, kInt8).
InferencePrecision AsInferencePrecision(Precision p);
// "fp32", "bf16", "int8" (InferencePrecisionName).
const char* PrecisionName(Precision p);

// OK when this CPU runs `p` with native instructions (fp32: AVX2 or better is not
// required, any x86-64 works; bf16: AVX-512 BF16; int8: AVX-512 VNNI or AVX-VNNI), else a
// failure whose message is a one-line reason naming the missing instructions.
util::Status CpuSupports(Precision p);

// The batch size a call of `batch` positions is padded to: exact up to 8, then multiples
// of 8 up to 64, of 32 up to 256, of 64 beyond (at most 8 + 7 + 6 + ... buckets).
int BatchBucket(int batch);

// Activation ranges for int8: the largest value of each activation tensor (the input planes,
// then the stem's output, then each trunk convolution's output), measured in fp32 on
// calibration positions (InferenceNet::MeasureRanges).
struct Calibration {
  std::vector<float> max_activation;
};

class InferenceNet {
 public:
  // Builds the engine. int8 needs `calibration` (from an fp32 engine's MeasureRanges).
  // Errors: the CPU lacks the instructions of `precision` (CpuSupports), or oneDNN
  // would only run it with its slow reference code (the message names the implementation).
  static util::Result<std::unique_ptr<InferenceNet>> Create(const InferenceWeights& weights,
                                                            Precision precision,
                                                            const Calibration& calibration = {});
  ~InferenceNet();
  InferenceNet(const InferenceNet&) = delete;
  InferenceNet& operator=(const InferenceNet&) = delete;

  // planes: [batch][kNumPlanes][size][size] (model/base/features.h, canvas == size); writes
  // logits [batch][size * size + 1] (canvas-indexed, pass last) and values [batch] (tanh).
  // Runs on the calling thread's OpenMP thread count. Not thread-safe.
  void Forward(const float* planes, int batch, int size, float* logits, float* values);

  // fp32 only: runs `planes` (as Forward) and returns the largest value of each activation.
  Calibration MeasureRanges(const float* planes, int batch, int size);

  Precision precision() const;
  // oneDNN's name of the implementation that runs the trunk's convolutions (e.g.
  // "brg:avx512_core_vnni"), for the record.
  std::string Implementation() const;

  struct Impl;
  explicit InferenceNet(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace veletas::model
