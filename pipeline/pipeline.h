// The generation loop (`veletas pipeline`): generations of self-play, training, gating and
// rating until the configured budget is spent, all in one run directory:
//
//   RUN_DIR/config.resolved.yaml   the effective config (every value, defaults included)
//   RUN_DIR/state.json             where the run is (pipeline/pipeline_state.h)
//   RUN_DIR/models/gen_NNNN.ckpt   generation N of the learner (0 = the initial network)
//   RUN_DIR/samples/iter_NNNN/     self-play of iteration N (played by the best network)
//   RUN_DIR/train/                 metrics.jsonl, training_loss.png
//   RUN_DIR/matches/               gate and ladder matches (JSON and game records)
//   RUN_DIR/ratings.json, .png     the rating ladder of every generation and anchor
//   RUN_DIR/logs/pipeline.log      what the run reported, stage by stage
//
// Iteration N: self-play with the best network -> train the learner's generation N into
// generation N+1 on the replay window of all self-play so far -> gate N+1 against the best
// (promote on success) -> a rating-ladder round. Every stage resumes after a kill (self-play
// keeps its complete sample files, training its state file, matches their files) and
// state.json moves on only after a stage has finished, so running the same command again
// continues where the run stopped and never promotes a model twice.
//
// The layer plays self-play and arena games itself (selfplay, arena) but never touches Torch:
// networks, training and the first checkpoint come through pipeline::Networks
// (pipeline/networks.h), the cluster through pipeline::RemotePlay, and everything it reports
// goes to a pipeline::Reporter.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "pipeline/networks.h"
#include "pipeline/remote_play.h"
#include "pipeline/reporter.h"
#include "pipeline/run_clock.h"
#include "util/result.h"

namespace veletas::pipeline {

struct PipelineOptions {
  std::string run_dir;
  // Accept a config that differs from RUN_DIR/config.resolved.yaml (e.g. more generations
  // or a longer budget for a finished run); the new one replaces it.
  bool allow_config_change = false;
  // Asked after every stage, once state.json records it; true ends the session there as a
  // kill would (Run returns ok, the run is not finished). Empty: never.
  std::function<bool()> stop_after_stage;
};

// The run's rating ladder as the pipeline shows it after a ladder round.
struct RatingsReport {
  std::vector<std::string> table;  // the ladder table, one line per row (header first)
  std::string chart_note;          // why ratings.png was not drawn; "" when it was
};

// What the pipeline is given from outside its layer. Every reference must outlive the run.
struct PipelineServices {
  Networks& networks;
  Reporter& reporter;
  RunClock& clock;
  // Connects to the cluster of a run with a `cluster` section (called once per session, only
  // for such a run); `log` reports a line as the pipeline's own lines are.
  std::function<util::Result<std::unique_ptr<RemotePlay>>(
      const std::function<void(const std::string&)>& log)>
      start_cluster;
  // Rates every match of the run directory, writes ratings.json and ratings.png there.
  std::function<util::Result<RatingsReport>(const std::string& run_dir)> rate_run;
};

// Runs (or resumes) the pipeline until it is finished, the budget is spent or
// options.stop_after_stage says stop. Errors: bad input (the config differs from the run's, a
// corrupt state file, a model that does not fit) or a failure, as the error's kind says; the
// message has already been appended to RUN_DIR/logs/pipeline.log, not reported.
util::Status RunPipeline(const config::Config& config, const PipelineOptions& options,
                         PipelineServices& services);

// Path of generation `generation`'s checkpoint in a run directory.
std::string GenerationModelPath(const std::string& run_dir, long long generation);

}  // namespace veletas::pipeline
