// Folding a LibTorch network into InferenceWeights. Include only from model/: it pulls in
// Torch (network.h).
#pragma once

#include "model/inference_weights.h"
#include "model/network.h"

namespace veletas::model {

// The weights of `net` (any device, any mode) with each batch norm's running statistics
// folded into its convolution: w' = w * gamma / sqrt(var + eps), b' = beta - mean * gamma /
// sqrt(var + eps) (+ the convolution's own bias). policy_conv and value_conv are stacked
// into one 1x1 convolution.
InferenceWeights FoldWeights(const VeletasNet& net);

}  // namespace veletas::model
