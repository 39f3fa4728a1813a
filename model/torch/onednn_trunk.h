// VeletasNet's forward pass in training mode (the trunk and the three heads) without
// LibTorch's ops: the trunk and the heads' 1x1 ConvBn layers through oneDNN's training
// primitives (model/onednn/train_trunk.h: convolution forward_training, backward_data and
// backward_weights, batch normalization forward_training and backward with the ReLU fused,
// the residual add + ReLU as a binary primitive, activations in oneDNN's blocked layout), the
// rest of the heads (policy and aux 1x1 outputs, pooling, fully connected layers) in plain C++
// (model/onednn/train_heads.h). One autograd node from the planes to the policy logits, value
// logit and aux logits: the weights stay the LibTorch parameters (read at each step; their
// gradients go back to the parameters' .grad), the losses (and the value's tanh) and the
// optimiser stay LibTorch. Include only from model/ and training/: it pulls in Torch.
//
// It runs only batches whose positions all fill the canvas (every mask value 1): there the
// masked batch norm is exactly the plain batch norm over B*M*M squares, so the same learning
// as the LibTorch ops within float rounding (fp32; bf16 within what LibTorch's own bf16
// autocast moves). Other batches,
// eval mode, autocast and non-CPU tensors take LibTorch's ops (VeletasNetImpl::forward).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <torch/torch.h>

#include "model/base/net_config.h"
#include "model/onednn/train_trunk.h"
#include "model/torch/network.h"
#include "util/result.h"

namespace veletas::model {

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

  // The network's outputs (NetOutput: policy, value_logit, aux through one autograd node
  // whose backward fills every parameter's gradient; value = tanh(value_logit)) for planes
  // x [B, kNumPlanes, M, M] with `net`'s weights; updates the batch norms' running statistics
  // as MaskedBatchNorm does. Nothing (and a note, once per reason) where the batch must take
  // LibTorch's ops: a board smaller than the canvas, a non-float or non-CPU tensor, autocast
  // on, or oneDNN refusing this shape.
  std::optional<NetOutput> Forward(VeletasNetImpl& net, const torch::Tensor& x);

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

// The parameters in the order OnednnTrunk passes them to its autograd node: per trunk
// convolution (stem, block0.a, block0.b, block1.a, ...) conv.weight, bn.weight, bn.bias; the
// heads' first layers (policy_conv, value_conv, aux_conv) conv.weight each, bn.weight each,
// bn.bias each; then policy_out, pass_fc, value_fc1, value_fc2, aux_out, weight and bias each.
// Every parameter of the network, once.
std::vector<torch::Tensor> TrunkParameters(VeletasNetImpl& net);

}  // namespace veletas::model
