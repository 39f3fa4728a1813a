// The text of `veletas report RUN_DIR`: a pipeline run in words; the ratings the pipeline
// shows after a ladder round.
#pragma once

#include <string>

#include "arena/run_ratings.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_state.h"
#include "util/result.h"

namespace veletas::pipeline {

// The summary of the run in `run` with state `s`: a headline (finished or in progress, the
// best network, the run time), one line per generation (self-play, training losses, gate
// decision, Elo with its 95% interval from `rated`), the compute shares and the rating
// ladder (or why there is none yet: `rated`'s error). Ends with a newline.
std::string RunSummaryText(const std::string& run, const PipelineState& s,
                           const util::Result<arena::RunRatings>& rated);

// PipelineServices::rate_run of `veletas pipeline`: arena::RateRun over the run's matches
// (ratings.json), its chart (ratings.png; `chart_note` says why none was drawn) and its ladder
// table. RateRun's warnings are not shown (the pipeline shows the table only).
util::Result<RatingsReport> RateForPipeline(const std::string& run_dir);

}  // namespace veletas::pipeline
