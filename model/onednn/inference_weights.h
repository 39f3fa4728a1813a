// The network's weights as the inference engine (model/onednn/inference_net.h) consumes them:
// batch norm folded into each convolution (eval-mode statistics), plain float arrays, no
// Torch. Built from a VeletasNet by FoldWeights (model/torch/fold_weights.h).
#pragma once

#include <vector>

#include "model/base/net_config.h"

namespace veletas::model {

// A stride-1 "same" convolution: weight [out][in][kernel][kernel] (OIHW), bias [out].
struct FoldedConv {
  int in = 0;
  int out = 0;
  int kernel = 0;
  std::vector<float> weight;
  std::vector<float> bias;
};

// Everything inference needs; the aux head is left out (its output is never used there).
struct InferenceWeights {
  NetConfig arch;
  FoldedConv stem;                // kNumPlanes -> channels, 3x3, then relu
  std::vector<FoldedConv> trunk;  // 2 per residual block (a, b), 3x3
  FoldedConv heads;               // channels -> 2 * head_channels, 1x1 (policy | value), relu
  std::vector<float> policy_w;    // [head_channels]: policy_out, one logit per square
  float policy_b = 0.0f;
  std::vector<float> pass_w;  // [3 * head_channels]: pass logit from the pooled policy features
  float pass_b = 0.0f;
  std::vector<float> value1_w;  // [value_hidden][3 * head_channels]
  std::vector<float> value1_b;  // [value_hidden]
  std::vector<float> value2_w;  // [value_hidden]
  float value2_b = 0.0f;
};

}  // namespace veletas::model
