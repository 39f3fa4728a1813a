// Torch-free entry points for whole-file model operations (used by the app's commands).
#pragma once

#include <cstdint>
#include <string>

#include "model/base/checkpoint_file.h"

namespace veletas::model {

// Writes a checkpoint of a freshly initialised network for `spec` (generation 0, no
// optimiser state); the initial weights are a function of `seed` only.
Status CreateInitialCheckpoint(const std::string& path, const ModelSpec& spec, uint64_t seed);

// Loads `checkpoint` (one read) and writes `out_dir`/model.pt (TorchScript, see
// model/torch/export.h) and `out_dir`/model.json (its description); creates `out_dir` if needed.
// Returns the checkpoint's metadata. Errors name the file: a missing, corrupt or truncated
// checkpoint is bad input, a failed export or write a failure.
util::Result<CheckpointMeta> ExportModel(const std::string& checkpoint, const std::string& out_dir);

// Number of trainable parameters of a network with architecture `arch`.
int64_t ParameterCount(const NetConfig& arch);

}  // namespace veletas::model
