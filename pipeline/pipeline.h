// `veletas pipeline`: generations of self-play, training, gating and rating until the
// configured budget is spent, all in one run directory:
//
//   RUN_DIR/config.resolved.yaml   the effective config (every value, defaults included)
//   RUN_DIR/state.json             where the run is (app/pipeline_state.h)
//   RUN_DIR/models/gen_NNNN.ckpt   generation N of the learner (0 = the initial network)
//   RUN_DIR/samples/iter_NNNN/     self-play of iteration N (played by the best network)
//   RUN_DIR/train/                 metrics.jsonl, training_loss.png
//   RUN_DIR/matches/               gate and ladder matches (JSON and game records)
//   RUN_DIR/ratings.json, .png     the rating ladder of every generation and anchor
//   RUN_DIR/logs/pipeline.log      what the run printed, stage by stage
//
// Iteration N: self-play with the best network -> train the learner's generation N into
// generation N+1 on the replay window of all self-play so far -> gate N+1 against the best
// (promote on success) -> a rating-ladder round. Every stage resumes after a kill (self-play
// keeps its complete sample files, training its state file, matches their files) and
// state.json moves on only after a stage has finished, so running the same command again
// continues where the run stopped and never promotes a model twice.
#pragma once

#include <string>

#include "app/config.h"

namespace veletas::app {

struct PipelineOptions {
  std::string run_dir;
  // Accept a config that differs from RUN_DIR/config.resolved.yaml (e.g. more generations
  // or a longer budget for a finished run); the new one replaces it.
  bool allow_config_change = false;
};

// Runs (or resumes) the pipeline. Returns the process exit code: 0 when the run is
// finished, 2 for bad input (config differs from the run's, a corrupt state file, a model
// that does not fit), 1 for runtime failures. Prints status lines to stderr and stage
// summaries to stdout (and RUN_DIR/logs/pipeline.log).
int RunPipeline(const Config& config, const PipelineOptions& options);

// Path of generation `generation`'s checkpoint in a run directory.
std::string GenerationModelPath(const std::string& run_dir, long long generation);

}  // namespace veletas::app
