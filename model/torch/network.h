// The policy/value network (LibTorch). Include only from model/ and training/: it pulls in
// Torch. Inputs are the planes of model/base/features.h on a canvas of side M; all activations
// are multiplied by the board mask after every convolution and pooling is masked, so a
// board padded into a larger canvas gives the same outputs as on its own canvas, in eval
// and in training mode (batch norm statistics are taken over board squares only).
#pragma once

#include <memory>
#include <string>

#include <torch/torch.h>

#include "model/base/features.h"
#include "model/base/net_config.h"
#include "util/result.h"

namespace veletas::model {

class OnednnTrunk;

// Outputs of one forward pass over a batch of B positions on a canvas of side M.
struct NetOutput {
  // [B, M*M + 1] policy logits, canvas-indexed (model/base/features.h CanvasAction): square
  // row * M + col, pass slot M * M. Values off the board are meaningless; mask with the
  // legal actions.
  torch::Tensor policy;
  // [B] expected result in (-1, 1) for the player to move: tanh(value_logit).
  torch::Tensor value;
  // [B] the value before its tanh (for a cross-entropy value loss: the chance of winning is
  // sigmoid(2 * value_logit) = (value + 1) / 2).
  torch::Tensor value_logit;
  // [B, 3, M, M] logits of who will have claimed the shooter on each square at the end of
  // the game, relative to the player to move (Position::ToMovePlayer(), as data::Owner):
  // 0 = the colour that player holds at the end, 1 = the other colour, 2 = nobody.
  // Meaningful on squares holding a shooter.
  torch::Tensor aux;
};

// Batch normalisation over board squares only. Parameters weight/bias, buffers
// running_mean/running_var (as torch::nn::BatchNorm2d). Training mode normalises with the
// statistics of the masked squares of the batch and updates the running statistics
// (momentum 0.1, unbiased variance); eval mode uses the running statistics.
class MaskedBatchNormImpl : public torch::nn::Module {
 public:
  static constexpr double kEps = 1e-5;
  static constexpr double kMomentum = 0.1;
  explicit MaskedBatchNormImpl(int channels);
  // x [B, C, M, M]; mask [B, 1, M, M]; count = mask.sum() (board squares in the batch).
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask,
                        const torch::Tensor& count);
  torch::Tensor weight, bias, running_mean, running_var;
};
TORCH_MODULE(MaskedBatchNorm);

// Convolution (no bias) + masked batch norm.
class ConvBnImpl : public torch::nn::Module {
 public:
  ConvBnImpl(int in, int out, int kernel);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask,
                        const torch::Tensor& count);
  torch::nn::Conv2d conv{nullptr};
  MaskedBatchNorm bn{nullptr};
};
TORCH_MODULE(ConvBn);

// Residual block: x + ConvBn(relu(ConvBn(x))), then relu; masked after each convolution.
class ResidualBlockImpl : public torch::nn::Module {
 public:
  explicit ResidualBlockImpl(int channels);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask,
                        const torch::Tensor& count);
  ConvBn a{nullptr}, b{nullptr};
};
TORCH_MODULE(ResidualBlock);

// ResNet: stem conv, `blocks` residual blocks of two 3x3 convolutions, and three heads:
//  policy: 1x1 conv -> head_channels -> 1x1 conv -> one logit per square; the pass logit
//          is a linear function of the masked-pooled head features;
//  value:  1x1 conv -> head_channels, masked pooling, FC value_hidden, FC 1, tanh;
//  aux:    1x1 conv -> head_channels -> 1x1 conv -> 3 logits per square.
// Masked pooling of features F >= 0 gives, per channel, the mean over board squares, the
// maximum, and the mean scaled by (sqrt(board squares) - 8.5) / 1.5 (board size signal).
// Thread safety: a module must not be used by two threads at once.
class VeletasNetImpl : public torch::nn::Module {
 public:
  explicit VeletasNetImpl(const NetConfig& arch);
  // x [B, kNumPlanes, M, M] float on the module's device.
  NetOutput forward(const torch::Tensor& x);
  const NetConfig& arch() const { return arch_; }
  // Runs the forward pass (trunk and heads) through `trunk` (model/torch/onednn_trunk.h) in
  // training mode, on the batches it takes (one board size, float, CPU); null (the default):
  // LibTorch's ops everywhere. Not copied by CloneNet.
  void SetTrainingTrunk(std::shared_ptr<OnednnTrunk> trunk) { trunk_ = std::move(trunk); }

  ConvBn stem{nullptr};
  std::vector<ResidualBlock> blocks;  // registered as "block0", "block1", ...
  ConvBn policy_conv{nullptr}, value_conv{nullptr}, aux_conv{nullptr};
  torch::nn::Conv2d policy_out{nullptr}, aux_out{nullptr};
  torch::nn::Linear pass_fc{nullptr}, value_fc1{nullptr}, value_fc2{nullptr};

 private:
  // The trunk through LibTorch's ops (stem and residual blocks, masked).
  torch::Tensor TorchTrunk(const torch::Tensor& x, const torch::Tensor& mask,
                           const torch::Tensor& count);

  NetConfig arch_;
  std::shared_ptr<OnednnTrunk> trunk_;
};
TORCH_MODULE(VeletasNet);

// The stride-1 "same" convolution (padding kernel / 2) of conv's weights and bias on x.
// On the CPU it calls oneDNN (MKL-DNN) directly: LibTorch's own heuristic sends batch-1
// 3x3 and small-batch 1x1 convolutions to its im2col + BLAS path, which Debian links
// against the reference BLAS and runs 5-17x slower. Under CPU autocast it runs in autocast's
// dtype (bf16), as autocast runs torch::conv2d. Elsewhere torch::conv2d.
torch::Tensor Conv(const torch::Tensor& x, const torch::nn::Conv2d& conv);

// Masked pooling used by the heads (see VeletasNetImpl): [B, C, M, M] -> [B, 3C].
// Precondition: x >= 0 and x == 0 off the board.
torch::Tensor MaskedPool(const torch::Tensor& x, const torch::Tensor& mask);

// A new network with freshly initialised weights (Torch's default initialisation drawn
// from torch's global generator; seed it with torch::manual_seed for reproducibility).
VeletasNet MakeNet(const NetConfig& arch);

// A deep copy of `net` (parameters and buffers) on `device`, in the same train/eval mode.
VeletasNet CloneNet(const VeletasNet& net, const torch::Device& device);

// Copies every parameter and buffer of `from` into `to` (devices may differ).
// Precondition: both have the same architecture. Not thread-safe for `to`.
void CopyWeights(const VeletasNet& from, VeletasNet& to);

// Every parameter and buffer of `net` with its full name ("blocks.0.a.conv.weight"), in a
// fixed order: parameters first, then buffers. Used by checkpoints and export.
std::vector<std::pair<std::string, torch::Tensor>> NamedTensors(const VeletasNet& net);

// The device a config asks for: kCpu, kCuda (a failure when CUDA is unavailable), or kAuto
// (CUDA when torch::cuda::is_available(), else CPU).
util::Result<torch::Device> SelectDevice(Device device);

// The planes of `batch` as a [B, kNumPlanes, M, M] float tensor (a copy) on `device`.
torch::Tensor PlanesTensor(const EncodedBatch& batch, const torch::Device& device);
// The legal actions of `batch` as a [B, M*M + 1] bool tensor (a copy) on `device`.
torch::Tensor LegalTensor(const EncodedBatch& batch, const torch::Device& device);

// Sets Torch's intra-op thread count to `threads`, or to all cores when 0, and returns the
// count set. Process-wide default; OpenMP keeps the count per calling thread, so a thread
// that runs Torch work should call this (or torch::set_num_threads) itself.
int ApplyThreadSetting(int threads);

}  // namespace veletas::model
