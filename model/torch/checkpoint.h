// Saving and loading networks and optimiser state (LibTorch). Include only from model/ and
// training/. The container and metadata are described in model/base/checkpoint_file.h. Errors
// are values naming the file and the problem; no function throws.
#pragma once

#include <string>

#include <torch/torch.h>

#include "model/base/checkpoint_file.h"
#include "model/torch/network.h"

namespace veletas::model {

// Writes `net` (parameters and batch-norm statistics), the state of `optimizer` when not
// null (torch::optim::SGD or AdamW; anything else is an error) and `meta` to `path`
// atomically. meta.arch, feature fields and optimizer are filled in from the arguments.
// Thread safety: `net` and `optimizer` must not be modified concurrently.
Status SaveCheckpoint(const std::string& path, const VeletasNet& net,
                      torch::optim::Optimizer* optimizer, CheckpointMeta meta);

// Loads the checkpoint at `path` into `net`, which must have been built with spec.arch;
// the checkpoint must match `spec` (rules, size, architecture) and this build's features.
// When `optimizer` is not null and the checkpoint holds optimiser state, restores it (the
// optimiser must be of the stored kind and built over net->parameters() in order); when
// the checkpoint holds none, the optimiser is left alone (meta.optimizer is ""). Tensors
// are copied onto the device of `net`. On error `net` may be partly overwritten.
util::Result<CheckpointMeta> LoadCheckpointInto(const std::string& path, const ModelSpec& spec,
                                                VeletasNet& net,
                                                torch::optim::Optimizer* optimizer);
// The same from a checkpoint already read (ReadCheckpoint): nothing is read again.
util::Result<CheckpointMeta> LoadCheckpointInto(const CheckpointFile& file, const ModelSpec& spec,
                                                VeletasNet& net,
                                                torch::optim::Optimizer* optimizer);

struct LoadedModel {
  CheckpointMeta meta;
  VeletasNet net{nullptr};  // on the CPU, in eval mode
};

// Loads a checkpoint building the network from its own metadata. When `spec` is not null
// the checkpoint must match it.
util::Result<LoadedModel> LoadCheckpoint(const std::string& path, const ModelSpec* spec);
// The network of a checkpoint already read, which must fit `need` (an empty requirement
// checks only this build's features). Errors are bad input naming the file.
util::Result<LoadedModel> LoadCheckpoint(const CheckpointFile& file, const ModelRequirement& need);

}  // namespace veletas::model
