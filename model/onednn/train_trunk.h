// The training step of the network's trunk (the stem ConvBn and the residual blocks) and of the
// heads' first layer (the policy, value and aux 1x1 ConvBn + ReLU, run as one 1x1 convolution
// to 3 * head_channels and one batch norm over them: a batch norm is per channel, so this is
// the three heads' own) through oneDNN's training primitives, for one (batch, board size):
// convolution forward_training,
// backward_data and backward_weights; batch normalization forward_training and backward (the
// statistics of the batch, the ReLU fused where one follows); the residual add + ReLU as a
// binary primitive with a ReLU post-op, its backward as an eltwise ReLU backward on the
// block's output. Activations stay in the blocked layout nChw16c from the stem to the
// heads' features and are reordered from/to plain NCHW f32 only at the ends (the rest of the
// heads: model/onednn/train_heads.h). No mask: every
// position fills the canvas, so each batch norm normalises over all B*M*M squares. Torch-free:
// weights, gradients and running statistics are plain f32 arrays (model/torch/onednn_trunk.h
// passes the LibTorch parameters' storage).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "model/base/net_config.h"
#include "util/result.h"

namespace veletas::model {

// The arithmetic of the trunk's primitives. kBf16: the trunk's convolutions in bf16 (their
// inputs, weights and output gradients; oneDNN's cnn_training_bf16 scheme); the heads' 1x1
// layer, the batch norms, the residual stream, the convolutions' outputs and input gradients,
// the master weights and their gradients stay f32 (bf16 copies of the activations feed the
// convolutions). Its gradients differ from fp32's as LibTorch's own bf16 autocast's do
// (tests/model/onednn_trunk_test.cpp).
enum class TrunkPrecision { kFp32, kBf16 };

// "fp32" or "bf16".
const char* TrunkPrecisionName(TrunkPrecision p);

// One convolution + batch norm of the trunk: the f32 storage of its parameters and running
// statistics (contiguous: conv weight [out][in][k][k], the rest [out]).
struct TrunkLayerTensors {
  const float* conv_weight = nullptr;
  const float* bn_weight = nullptr;
  const float* bn_bias = nullptr;
  float* running_mean = nullptr;
  float* running_var = nullptr;
};

// Where the backward pass writes one layer's gradients (overwritten, not accumulated).
struct TrunkLayerGrads {
  float* conv_weight = nullptr;
  float* bn_weight = nullptr;
  float* bn_bias = nullptr;
};

// How the batch norms are parameterised (MaskedBatchNorm's constants).
struct TrunkBatchNorm {
  double eps = 1e-5;
  double momentum = 0.1;  // running = (1 - momentum) * running + momentum * batch statistic
};

// Where a trunk's time goes: seconds per kind of primitive (the heads' 1x1 layer counted
// with the trunk's), summed over the calls while attached (TrainTrunk::SetProfile).
struct TrunkProfile {
  double forward = 0, backward = 0;  // TrainTrunk::Forward and ::Backward in all
  // Their parts.
  double conv_forward = 0;
  double conv_backward_data = 0;
  double conv_backward_weights = 0;
  double bn_forward = 0;  // with its fused ReLU
  double bn_backward = 0;
  double residual_forward = 0;   // add + ReLU
  double residual_backward = 0;  // ReLU backward, the sum of the two gradients
  double reorders_forward = 0;   // planes in, weights, output out
  double reorders_backward = 0;  // gradient in, weights, weight gradients out
  double running_stats = 0;
  // The heads past their first layer (TrainHeads, timed by OnednnTrunk).
  double heads_forward = 0, heads_backward = 0;
};

// The primitives and buffers of the trunk for one (batch, board size). Layers are in the
// order stem, block0.a, block0.b, block1.a, ..., then the heads' layer (2 + 2 * arch.blocks
// of them): a 1x1 convolution channels -> 3 * head_channels whose output channels are the
// policy head's, the value head's, then the aux head's (their weights concatenated), its
// batch norm over those channels, ReLU fused. Thread safety: one thread at a time.
class TrainTrunk {
 public:
  // Errors (failures): oneDNN refuses a primitive, or would run a convolution or batch norm
  // in its reference code (named with the implementation it offered).
  static util::Result<std::unique_ptr<TrainTrunk>> Create(const NetConfig& arch,
                                                          TrunkPrecision precision, int batch,
                                                          int size, TrunkBatchNorm bn);
  ~TrainTrunk();
  TrainTrunk(const TrainTrunk&) = delete;
  TrainTrunk& operator=(const TrainTrunk&) = delete;

  // The forward pass in training mode: planes [batch][kNumPlanes][size][size] f32 to the
  // heads' features out [batch][3 * head_channels][size][size] f32 (after their ReLU); keeps
  // what the backward pass needs and updates
  // every layer's running statistics (unbiased variance, as MaskedBatchNorm).
  // Precondition: layers.size() == Layers().
  void Forward(const float* planes, std::span<const TrunkLayerTensors> layers, float* out);
  // The backward pass of the last Forward, for the gradient grad_out of its output (same
  // shape): every layer's parameter gradients. Precondition: the parameters are those of
  // that Forward, unchanged.
  void Backward(const float* grad_out, std::span<const TrunkLayerTensors> layers,
                std::span<const TrunkLayerGrads> grads);

  // Times every primitive into `profile` from now on (null: stops; the default). Waits on
  // each primitive, so only for measurements.
  void SetProfile(TrunkProfile* profile);

  int Layers() const;
  // oneDNN's implementation of the 3x3 convolutions' forward pass (e.g. "jit:avx512_core").
  const std::string& Implementation() const;

  struct Impl;

 private:
  explicit TrainTrunk(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace veletas::model
