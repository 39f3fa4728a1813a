// Folding a LibTorch network into InferenceWeights. Include only from model/: it pulls in
// Torch (network.h).
#pragma once

#include "model/onednn/inference_weights.h"
#include "model/torch/network.h"

namespace veletas::model {

// The weights of `net` (any device, any mode) with each batch norm's running statistics
// folded into its convolution: w' = w * gamma / sqrt(var + eps), b' = beta - mean * gamma /
// sqrt(var + eps) (+ the convolution's own bias). policy_conv and value_conv are stacked
// into one 1x1 convolution.
InferenceWeights FoldWeights(const VeletasNet& net);

// One convolution with its batch norm folded as above (in double, rounded to float once):
// the inference engine's and the exported graph's (model/torch/export.h) layers.
FoldedConv FoldConvBn(const ConvBn& layer);

}  // namespace veletas::model
