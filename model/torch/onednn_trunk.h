// The trunk of VeletasNet (the stem ConvBn and the residual blocks, almost all of its
// arithmetic) trained through oneDNN's training primitives: convolution forward_training,
// backward_data and backward_weights, batch normalization forward_training and backward with
// the ReLU fused, the residual add + ReLU as a binary primitive, activations kept in oneDNN's
// blocked layout from the stem to the trunk's output. One autograd node over the whole trunk:
// the weights stay the LibTorch parameters (reordered into the primitives' layouts at each
// step; their gradients go back to the parameters' .grad), the heads, the losses and the
// optimiser stay LibTorch. Include only from model/ and training/: it pulls in Torch.
//
// It runs only batches whose positions all fill the canvas (every mask value 1): there the
// masked batch norm is exactly the plain batch norm over B*M*M squares, so the same learning
// as the LibTorch ops within float rounding (fp32; bf16 does not agree yet). Other batches, eval
// mode, autocast and non-CPU tensors take LibTorch's ops (VeletasNetImpl::forward).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <torch/torch.h>

#include "model/base/net_config.h"
#include "model/onednn/train_trunk.h"
#include "util/result.h"

namespace veletas::model {

class VeletasNetImpl;

// The oneDNN training trunk of one network architecture. Primitives and buffers are made once
// per (batch, board size) and kept (a few sizes at most). Each forward must be followed by
// its backward before the next forward of the same (batch, board size) (the training step;
// a backward of an older forward throws). Thread safety: one thread at a time.
class OnednnTrunk {
 public:
  // Says one line of why a batch takes the LibTorch ops instead (once per reason).
  using NoteFn = std::function<void(const std::string&)>;

  // A trunk for `arch` at `precision`. Errors (failures): oneDNN refuses a primitive of a
  // probe batch (9x9, batch 4) or would run a convolution or batch norm in its reference
  // code (a slow path): the caller trains with LibTorch's ops instead.
  static util::Result<std::shared_ptr<OnednnTrunk>> Create(const NetConfig& arch,
                                                           TrunkPrecision precision, NoteFn note);
  ~OnednnTrunk();
  OnednnTrunk(const OnednnTrunk&) = delete;
  OnednnTrunk& operator=(const OnednnTrunk&) = delete;

  // The trunk's output [B, channels, M, M] for planes x [B, kNumPlanes, M, M] with `net`'s
  // weights, as an autograd node whose backward fills the trunk parameters' gradients;
  // updates the batch norms' running statistics as MaskedBatchNorm does. Nothing (and a note,
  // once per reason) where the batch must take LibTorch's ops: a board smaller than the
  // canvas, a non-float or non-CPU tensor, autocast on, or oneDNN refusing this shape.
  std::optional<torch::Tensor> Forward(VeletasNetImpl& net, const torch::Tensor& x);

  // Times the trunk's primitives into `profile` (TrainTrunk::SetProfile; null stops).
  void SetProfile(TrunkProfile* profile);

  TrunkPrecision precision() const;
  // oneDNN's implementation of the 3x3 convolutions (e.g. "jit:avx512_core").
  const std::string& implementation() const;

  struct Impl;

 private:
  explicit OnednnTrunk(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The trunk's parameters in the order OnednnTrunk passes them to its autograd node: per
// convolution (stem, block0.a, block0.b, block1.a, ...) conv.weight, bn.weight, bn.bias.
std::vector<torch::Tensor> TrunkParameters(VeletasNetImpl& net);

}  // namespace veletas::model
