// Internal to the training layer: the training loop of TrainGeneration (training/trainer.h).
// Torch-free header; the implementation uses LibTorch.
#pragma once

#include <cstdint>
#include <string>

#include "model/base/checkpoint_file.h"
#include "training/call_plan.h"
#include "training/replay_window.h"
#include "training/trainer.h"

namespace veletas::training {

struct LoopSetup {
  const TrainRequest* request = nullptr;
  const ReplayWindow* window = nullptr;
  CallPlan* plan = nullptr;   // steps_done, metrics_offset and complete are updated
  DataState* data = nullptr;  // batches_drawn and samples_consumed are updated
  // The checkpoint, already read, holding the weights (and optimiser state) to start from:
  // the training-state file when resuming, else the input. The input's optimiser state is
  // restored only when it is of the configured kind; a state file's always is.
  const model::CheckpointFile* load_from = nullptr;
  bool resuming = false;
  std::string state_path;    // training-state file written every checkpoint_every steps
  std::string metrics_path;  // metrics.jsonl
};

// A result with `status` and `error` only.
TrainResult Failure(TrainStatus status, std::string error);

// The size of the file at `path` in bytes; 0 when it cannot be read.
int64_t FileSize(const std::string& path);

// Builds the network and optimiser, loads `load_from`, trains plan->steps - plan->steps_done
// steps writing metrics lines and training-state files, and writes the output checkpoint
// (plan->complete = true). Fills the loss, speed and loader fields of `stats`. The
// returned result carries only the status and error.
TrainResult RunTrainingLoop(const LoopSetup& setup, TrainStats& stats);

}  // namespace veletas::training
