// The learner: trains the network on self-play samples, one call per generation. Torch-free
// header (the app and the pipeline include it); the implementation uses LibTorch.
//
// One call, TrainGeneration:
//  1. loads the input checkpoint (it must match spec: rules, size, architecture) with its
//     optimiser state when it holds one of the configured kind and the request says it is
//     the same run's (TrainRequest::restore_input_optimizer), and the learner's data
//     state from its metadata (files ingested so far, sampling-stream position, reuse
//     credit; a checkpoint without it, e.g. from init-model, starts fresh);
//  2. ingests the sample files of `data` not ingested before (training/replay_window.h;
//     corrupt files are reported by name and skipped), and loads the replay window, the
//     newest W(N) samples;
//  3. trains `steps` steps (default: the sample-reuse limit, training/call_plan.h PlanSteps)
//     on batches drawn uniformly from the window with a random board symmetry each
//     (training/batch.h), prepared by a background thread (training/batch_loader.h): loss =
//     policy cross-entropy + value_weight * value MSE + aux_weight * aux cross-entropy, L2
//     through the optimiser's weight decay, SGD (momentum) or AdamW, learning rate by global
//     step (training/lr_schedule.h);
//  4. appends one metrics.jsonl line per metrics_every steps (training/metrics.h);
//  5. writes the output checkpoint atomically: weights, optimiser state, generation, global
//     step count and, in the metadata, the data state and this call's plan (call_plan.h).
//
// Resume: every checkpoint_every steps the call writes TrainingStatePath(output) (the same
// checkpoint format, with the plan's progress). Run after a kill, the same call (same input
// checkpoint and generation) continues from that file with the same weights, optimiser
// state, step count, window and sampling stream (the request's data and steps are not
// looked at again: files that arrived meanwhile go to the next call); metrics.jsonl is cut
// back to where it was then, so no line is doubled. The state file is also written at step
// 0, so a kill at any moment after planning resumes the same plan. After the output is written the
// state file is removed; a call whose output already exists for the same input and generation does
// nothing.
//
// The learner has its own network: self-play and the arena load the checkpoints it writes
// into their own NetworkEvaluator, so it never trains a module an evaluator is using.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/base/checkpoint_file.h"
#include "training/training_config.h"
#include "util/result.h"

namespace veletas::training {

// Reported to TrainRequest::progress while training.
struct TrainProgress {
  int64_t generation = 0;
  int64_t step = 0;         // steps of this call done
  int64_t steps = 0;        // steps of this call in all
  int64_t global_step = 0;  // training steps of all generations done
  // Averages over the steps since the previous report; loss_total is policy + value_weight
  // * value + aux_weight * aux, without the L2 term (which metrics.jsonl adds).
  double loss_total = 0, loss_policy = 0, loss_value = 0, loss_aux = 0;
  double learning_rate = 0;
  double samples_per_second = 0;  // since the previous report
  double eta_seconds = 0;         // remaining steps at the call's average rate so far
  bool metrics_line = false;      // a metrics.jsonl line was written at this step
};

struct TrainRequest {
  TrainingConfig config;
  model::ModelSpec spec;                       // rules, size, architecture of the checkpoints
  model::Device device = model::Device::kCpu;  // the model section's device
  std::string input_checkpoint;                // the network to start from
  // Restore the input's optimiser state (when it holds one of the configured kind): only for
  // a checkpoint of the same run, e.g. the pipeline's previous generation. Otherwise the input
  // gives its weights only, and its optimiser section (a Torch archive) is never parsed.
  // (The training-state file of an interrupted call always restores its own.)
  bool restore_input_optimizer = false;
  std::vector<std::string> data;  // sample directories or files, oldest first
  std::string output_checkpoint;  // where the trained network goes
  int64_t generation = -1;        // written into the output; -1 = the input's + 1
  int64_t steps = -1;             // steps to train; -1 = from the sample-reuse limit
  std::string metrics_path;       // "" = <directory of the output>/metrics.jsonl
  // Called from the calling thread at most every progress_interval seconds and after each
  // metrics line. May be empty.
  std::function<void(const TrainProgress&)> progress;
  double progress_interval = 0.5;
  // Notes as they happen (a skipped file, a resume, a fresh optimiser). May be empty.
  std::function<void(const std::string&)> log;
  // Testing: stop right after this many steps of the call as if the process were killed
  // (nothing more is written); -1 = never.
  int64_t abort_after_steps = -1;
};

struct TrainStats {
  int64_t generation = 0;
  int64_t steps = 0;         // steps of this call (including those before a resume)
  int64_t global_steps = 0;  // training steps of all generations after the call
  int64_t new_files = 0;     // files and samples ingested by this call
  int64_t new_samples = 0;
  int64_t total_samples = 0;   // ingested over all calls
  int64_t window_samples = 0;  // W(N)
  int64_t window_files = 0;
  std::vector<std::string> skipped;  // "<file>: <why>" for every file left out
  bool resumed = false;              // continued from the training-state file
  int64_t resumed_from_step = 0;     // steps of this call already done then
  bool already_done = false;         // the output existed for this input and generation
  // Averages over the last metrics window (as its metrics.jsonl line: loss_total includes
  // loss_l2).
  double loss_total = 0, loss_policy = 0, loss_value = 0, loss_aux = 0, loss_l2 = 0;
  double seconds = 0;  // wall time of the call
  // The training loop after its first two steps (warm-up): samples per second including
  // waiting for batches, and the time spent waiting for the loader.
  double loop_samples_per_second = 0;
  double loader_wait_seconds = 0;
  // The arithmetic the steps used, "fp32" or "bf16" (training/train_precision.h: bf16
  // falls back to fp32 on a CPU without AVX-512 BF16).
  std::string precision = "fp32";
  // The implementation of the steps, "onednn" or "torch" (training/train_precision.h
  // ChooseTrainEngine).
  std::string engine = "torch";
};

enum class TrainStatus {
  kOk,
  kBadInput,  // bad or missing data, checkpoint or request (exit code 2)
  kFailed,    // a runtime failure, e.g. a file that cannot be written (exit code 1)
  kAborted,   // abort_after_steps reached
};

struct TrainResult {
  TrainStatus status = TrainStatus::kOk;
  std::string error;  // names the file and the problem when status is not kOk
  TrainStats stats;
  bool ok() const { return status == TrainStatus::kOk; }
  // The outcome as the one error convention: kBadInput is bad input (exit 2), kFailed and
  // kAborted failures (exit 1).
  util::Status ToStatus() const {
    if (ok()) return util::Ok();
    return util::Error{error, status == TrainStatus::kBadInput ? util::ErrorKind::kBadInput
                                                               : util::ErrorKind::kFailure};
  }
};

// Runs one call as described above. Blocks; uses Torch with config.threads intra-op
// threads (set in the calling thread) plus one loader thread. Not to be run concurrently
// on the same output path.
TrainResult TrainGeneration(const TrainRequest& request);

// The metrics file a request writes: metrics_path, or metrics.jsonl beside the output.
std::string MetricsPath(const TrainRequest& request);

// The resumable training-state file of an output checkpoint: output + ".state".
std::string TrainingStatePath(const std::string& output_checkpoint);

}  // namespace veletas::training
