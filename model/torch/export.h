// Export of a network as a self-contained TorchScript module (LibTorch). Include only from
// model/ and training/; other layers use ExportModel in model/torch/model_files.h.
#pragma once

#include <string>

#include <torch/script.h>
#include <torch/torch.h>

#include "model/base/checkpoint_file.h"
#include "model/torch/network.h"

namespace veletas::model {

// A torch::jit::Module computing `net`'s eval-mode forward pass from its own copy of the
// weights, each batch norm folded into its convolution as the native inference path folds
// it (FoldConvBn, model/torch/fold_weights.h): convolutions with bias, ReLU, residual additions,
// the board mask; no batch-norm operation. Defined in TorchScript source (no code of this
// project is needed to load or run it). Agrees with `net` within float rounding (the export
// tests allow 1e-4). forward(x) takes [B, kNumPlanes, M, M] float32 and
// returns (policy logits [B, M*M+1], value [B], aux logits [B, 3, M, M]) as VeletasNet.
torch::jit::Module BuildScriptModule(const VeletasNet& net);

// The JSON document describing the exported module's inputs and outputs (planes in order
// with their meaning, shapes, action numbering, value and aux meaning, rules, size,
// architecture, generation).
std::string DescribeExport(const CheckpointMeta& meta);

}  // namespace veletas::model
