// What one TrainGeneration call does (its plan), stored in the metadata of the training-state
// and output checkpoints so that a killed call resumes exactly, and the number of steps a
// call may train under the sample-reuse limit. Torch-free.
#pragma once

#include <cstdint>
#include <string>

#include "training/replay_window.h"
#include "training/training_config.h"
#include "util/result.h"

namespace veletas::training {

// Metadata keys (model::CheckpointMeta::extra) of training checkpoints.
inline constexpr const char* kExtraData = "training.data";  // DataStateToJson
inline constexpr const char* kExtraCall = "training.call";  // CallPlanToJson

struct CallPlan {
  std::string input_fingerprint;  // the input checkpoint's content checksum (hex)
  int64_t generation = 0;         // written into the output
  int64_t start_step = 0;         // global step count of the input checkpoint
  int64_t steps = 0;              // steps this call trains
  int64_t steps_done = 0;         // steps trained so far (== steps once complete)
  int64_t first_batch = 0;        // sampling-stream index of this call's first batch
  uint64_t seed = 0;              // sampling stream
  int64_t metrics_offset = 0;     // size of metrics.jsonl when steps_done was reached
  int64_t new_files = 0;          // ingested by this call
  int64_t new_samples = 0;
  int64_t window_samples = 0;  // W(N) after ingestion
  bool complete = false;       // the output checkpoint was written
  bool operator==(const CallPlan&) const = default;
};

std::string CallPlanToJson(const CallPlan& plan);
util::Result<CallPlan> CallPlanFromJson(const std::string& json, const std::string& source);

// The number of steps a call trains after ingesting `new_samples`: the allowance
// reuse_credit + new_samples * max_sample_reuse sample uses, in whole batches, at most
// max_steps_per_generation; `steps_override` >= 0 replaces that number. Updates
// state.reuse_credit: the unused allowance (below one batch), or 0 when the cap or the
// override cut it.
int64_t PlanSteps(const TrainingConfig& config, int64_t new_samples, int64_t steps_override,
                  DataState& state);

}  // namespace veletas::training
