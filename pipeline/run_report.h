// The text of `veletas report RUN_DIR`: a pipeline run in words.
#pragma once

#include <string>

#include "arena/run_ratings.h"
#include "pipeline/pipeline_state.h"
#include "util/result.h"

namespace veletas::pipeline {

// The summary of the run in `run` with state `s`: a headline (finished or in progress, the
// best network, the run time), one line per generation (self-play, training losses, gate
// decision, Elo with its 95% interval from `rated`), the compute shares and the rating
// ladder (or why there is none yet: `rated`'s error). Ends with a newline.
std::string RunSummaryText(const std::string& run, const PipelineState& s,
                           const util::Result<arena::RunRatings>& rated);

}  // namespace veletas::pipeline
