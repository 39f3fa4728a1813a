// The text and files of `veletas report RUN_DIR`: a pipeline run in words, with charts; the
// ratings the pipeline shows after a ladder round.
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

// What `veletas report RUN_DIR` wrote into RUN_DIR/report/.
struct WrittenReport {
  std::string text;          // RunSummaryText, then the charts' lines (or why there are none)
  std::string summary_path;  // RUN_DIR/report/summary.txt, which holds `text`
  std::string warnings;      // arena::RateRun's, a line each
  util::Status charts = util::Ok();  // the error that kept the charts from being drawn, if any
};

// Writes the report of run `run` into RUN_DIR/report/: summary.txt and the charts of
// charts/veletas_charts.py (Elo, losses, speed, gate). No ratings yet (no match played) is
// part of the summary; a chart that cannot be drawn is in `charts`, the summary is written
// without it. Errors: bad input when `run` is no run directory, has no readable state or
// report/ cannot be made; a failure when the ratings cannot be computed or the summary
// cannot be written.
util::Result<WrittenReport> WriteRunReport(const std::string& run);

// PipelineServices::rate_run of `veletas pipeline`: arena::RateRun over the run's matches
// (ratings.json), its chart (ratings.png; `chart_note` says why none was drawn) and its ladder
// table. RateRun's warnings are not shown (the pipeline shows the table only).
util::Result<RatingsReport> RateForPipeline(const std::string& run_dir);

}  // namespace veletas::pipeline
