// The state of a pipeline run (RUN_DIR/state.json), rewritten atomically after every stage so
// that a restarted run continues exactly where the last finished stage left it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace veletas::pipeline {

enum class PipelineStage { kSelfplay, kTrain, kGate, kLadder, kFinished };
const char* StageName(PipelineStage stage);

// What one generation's iteration produced (generation g = trained in iteration g-1).
struct GenerationSummary {
  int64_t generation = 0;
  // Self-play of the iteration that trained it (played by the best network then).
  int64_t selfplay_games = 0;
  int64_t selfplay_samples = 0;
  double selfplay_seconds = 0;
  // Positions the network evaluated in that self-play (0 in state files from before it was
  // counted).
  int64_t selfplay_network_evaluations = 0;
  double swap_rate = 0;          // of the games played now
  double resign_threshold = -1;  // the threshold its self-play used
  // Training.
  int64_t train_steps = 0;
  double loss_total = 0;
  double loss_policy = 0;
  double loss_value = 0;
  double train_seconds = 0;
  int64_t train_samples = 0;  // steps * batch size (each a forward and backward pass)
  // Gate against the best network of the time.
  int64_t gated_against = -1;  // -1: not gated (gate off)
  bool promoted = false;
  int gate_games = 0;
  int gate_wins = 0;
  std::string gate_reason;
  double gate_seconds = 0;
  uint64_t gate_evaluations = 0;
  double ladder_seconds = 0;
  uint64_t ladder_evaluations = 0;
  double iteration_seconds = 0;  // selfplay to ladder
  double cpu_seconds = 0;        // CPU time of the pipeline process in this iteration
};

// Where a run's compute went: seconds and network evaluations (training: samples) of each
// stage, summed over generations.
struct ComputeShares {
  double selfplay_seconds = 0, train_seconds = 0, gate_seconds = 0, ladder_seconds = 0;
  uint64_t selfplay_evaluations = 0, gate_evaluations = 0, ladder_evaluations = 0;
  int64_t train_samples = 0;
  double Seconds() const {
    return selfplay_seconds + train_seconds + gate_seconds + ladder_seconds;
  }
  // The share of the time spent learning (self-play and training), in [0, 1].
  double LearningShare() const;
  void Add(const GenerationSummary& g);
};

// "self-play 61% (1.20M evals), training 26% (38.4k samples), gate 4% (52.1k evals),
// ladder 9% (201k evals)".
std::string FormatComputeShares(const ComputeShares& c);

struct PipelineState {
  int64_t iteration = 0;  // iteration in progress: trains generation iteration + 1
  PipelineStage stage = PipelineStage::kSelfplay;  // next stage to run in that iteration
  int64_t best_generation = 0;
  double elapsed_seconds = 0;   // run time of all sessions
  std::string finished_reason;  // why the run ended ("" while running)
  std::vector<GenerationSummary> generations;
  std::vector<long long> rated_generations;  // generations that played a ladder round
  double cpu_seconds = 0;                    // CPU time of the pipeline process, all sessions
  // The resignation threshold of the next self-play (selfplay.resign_threshold until the
  // pipeline calibrates it; selfplay::CalibrateResignThreshold).
  double resign_threshold = -1;
  bool resign_calibrated = false;  // resign_threshold holds a calibrated value
};

// RUN_DIR/state.json.
std::string StatePath(const std::string& run_dir);
// Reads the state; errors name the file and what is wrong.
util::Result<PipelineState> ReadPipelineState(const std::string& path);
// The state from the text of a state file (`path` names it in errors).
util::Result<PipelineState> PipelineStateFromText(std::string_view text, const std::string& path);
// Writes atomically; the error names the file.
util::Status WritePipelineState(const std::string& path, const PipelineState& state);

}  // namespace veletas::pipeline
