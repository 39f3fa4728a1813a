// The pipeline's seam to the networks (as cluster::RunLoader is the worker's): creating
// the first checkpoint, loading checkpoints for self-play and arena games, and training one
// generation. The app implements it with LibTorch (app/pipeline_services.h); tests use fakes,
// so the stage machine runs in seconds without Torch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search/evaluator.h"
#include "util/result.h"

namespace veletas::pipeline {

// A training step's progress, about every second.
struct TrainProgress {
  int64_t step = 0;
  int64_t steps = 0;
  double loss_total = 0, loss_policy = 0, loss_value = 0, loss_aux = 0;
  double samples_per_second = 0;
  double eta_seconds = 0;
};

// One generation's training: `input_checkpoint` (generation - 1) trained on the replay window
// of the sample directories `data` into `output_checkpoint`. A training that was interrupted
// resumes from its state file; one whose output exists already returns at once.
struct TrainJob {
  std::string input_checkpoint;
  std::string output_checkpoint;
  std::vector<std::string> data;  // sample directories, oldest first
  int64_t generation = 0;
  std::string metrics_path;  // metrics.jsonl, appended to
  std::function<void(const TrainProgress&)> progress;
  std::function<void(const std::string&)> log;  // notes worth a line
};

// What a generation's training did.
struct TrainSummary {
  int64_t steps = 0;         // steps of the generation (including those before a resume)
  int64_t global_steps = 0;  // training steps of all generations so far
  int64_t total_samples = 0;
  int64_t window_samples = 0;
  double loss_total = 0, loss_policy = 0, loss_value = 0, loss_aux = 0;
  double loop_samples_per_second = 0;
  double seconds = 0;                // wall time of the call
  std::vector<std::string> skipped;  // "<file>: <why>" for every sample file left out
};

// Networks loaded for arena games (gate, ladder), by checkpoint path: each loaded once and
// shared by every player that uses it, valid as long as this object.
class ArenaNetworks {
 public:
  virtual ~ArenaNetworks() = default;
  // The evaluator of `checkpoint` (loaded on first use). Errors name the file: missing,
  // corrupt or not made for the config's game.
  virtual util::Result<search::Evaluator*> Get(const std::string& checkpoint) = 0;
};

class Networks {
 public:
  virtual ~Networks() = default;
  // Writes the untrained network of the config (generation 0) to `checkpoint`, its weights
  // drawn from `seed`. Errors: a failure to write.
  virtual util::Status CreateInitial(const std::string& checkpoint, int64_t seed) = 0;
  // Loads `checkpoint` for self-play on the config's device. Errors: bad input when it is
  // missing, corrupt or does not fit the config; a failure when the device cannot run it.
  virtual util::Result<std::unique_ptr<search::Evaluator>> LoadForSelfplay(
      const std::string& checkpoint) = 0;
  // An empty set of arena networks (for one gate or ladder round).
  virtual std::unique_ptr<ArenaNetworks> ForArena() = 0;
  // Trains one generation. Errors: bad input (bad or missing data or checkpoint) or a
  // failure (e.g. a file that cannot be written).
  virtual util::Result<TrainSummary> Train(const TrainJob& job) = 0;
};

}  // namespace veletas::pipeline
