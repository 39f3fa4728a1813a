// The training step of the network's heads after their first layer, in plain C++ over f32
// arrays (Torch-free): from the heads' features (the policy, value and aux 1x1 ConvBn + ReLU
// outputs, which TrainTrunk computes) to the policy logits, the value logit and the aux
// logits, and back. Exactly VeletasNet's heads (model/torch/network.h) on batches whose
// boards fill the canvas (no mask: the masked pooling is the plain mean and maximum over all
// M*M squares):
//  policy: one logit per square = policy_out (1x1, h -> 1, bias) of the policy features; the
//          pass logit = pass_fc (3h -> 1) of their pooling [mean, max, mean * (M - 8.5) / 1.5];
//  value:  value_fc2 (hidden -> 1) of relu(value_fc1 (3h -> hidden) of the value features'
//          pooling);
//  aux:    aux_out (1x1, h -> 3, bias) of the aux features.
// The maximum's gradient is shared evenly between equal maxima, as LibTorch's amax.
#pragma once

#include <memory>
#include <vector>

#include "model/base/net_config.h"

namespace veletas::model {

// The heads' parameters past their first layer: the f32 storage of the LibTorch parameters
// (row-major as torch::nn::Linear and Conv2d hold them: [out][in]).
struct HeadTensors {
  const float* policy_out_w = nullptr;  // [h]
  const float* policy_out_b = nullptr;  // [1]
  const float* pass_w = nullptr;        // [3h]
  const float* pass_b = nullptr;        // [1]
  const float* value_fc1_w = nullptr;   // [hidden][3h]
  const float* value_fc1_b = nullptr;   // [hidden]
  const float* value_fc2_w = nullptr;   // [hidden]
  const float* value_fc2_b = nullptr;   // [1]
  const float* aux_out_w = nullptr;     // [3][h]
  const float* aux_out_b = nullptr;     // [3]
};

// Where TrainHeads::Backward writes the gradients of HeadTensors' parameters (same shapes;
// overwritten, not accumulated).
struct HeadGrads {
  float* policy_out_w = nullptr;
  float* policy_out_b = nullptr;
  float* pass_w = nullptr;
  float* pass_b = nullptr;
  float* value_fc1_w = nullptr;
  float* value_fc1_b = nullptr;
  float* value_fc2_w = nullptr;
  float* value_fc2_b = nullptr;
  float* aux_out_w = nullptr;
  float* aux_out_b = nullptr;
};

// The heads' outputs for a batch of B positions on M x M boards (S = M*M squares).
struct HeadOutputs {
  float* policy = nullptr;       // [B][S + 1]: square logits (row * M + col), then pass
  float* value_logit = nullptr;  // [B]
  float* aux = nullptr;          // [B][3][S]
};

// Their gradients (as HeadOutputs; a null array counts as zero).
struct HeadOutputGrads {
  const float* policy = nullptr;
  const float* value_logit = nullptr;
  const float* aux = nullptr;
};

// The heads for one (batch, board size), with what a forward pass keeps for its backward.
// Thread safety: one thread at a time.
class TrainHeads {
 public:
  // Heads of `arch` for `batch` positions on `size` x `size` boards.
  TrainHeads(const NetConfig& arch, int batch, int size);

  // features [B][3h][S]: channels 0..h-1 the policy head's, h..2h-1 the value head's,
  // 2h..3h-1 the aux head's, each >= 0 (after their ReLU). Keeps the pooling and hidden
  // layer for Backward.
  void Forward(const float* features, const HeadTensors& w, const HeadOutputs& out);
  // The backward pass of the last Forward (same features and parameters): every parameter's
  // gradient, and the gradient of the features into d_features [B][3h][S].
  void Backward(const float* features, const HeadTensors& w, const HeadOutputGrads& d_out,
                const HeadGrads& g, float* d_features);

  // Multiply-adds x 2 of one position's forward pass (for GFLOP/s figures).
  double FlopsPerPosition() const;

 private:
  int batch_, squares_, h_, hidden_;
  float pool_scale_;               // (M - 8.5) / 1.5, as MaskedPool computes it in float
  std::vector<float> pools_;       // [B][2][3h]: the policy features' pooling, then the value's
  std::vector<float> hidden_act_;  // [B][hidden] after the ReLU
};

}  // namespace veletas::model
