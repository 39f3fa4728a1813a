// `veletas report RUN_DIR`: a summary of a pipeline run: one line per generation (self-play,
// training losses, gate decision, Elo with its 95% interval), the anchors' ratings, and the
// charts of charts/veletas_charts.py (Elo by generation, losses, speed, gate decisions),
// written to RUN_DIR/report/.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/cli.h"
#include "app/command.h"
#include "arena/run_ratings.h"
#include "charts/charts.h"
#include "pipeline/pipeline_state.h"
#include "pipeline/run_report.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;

int RunReport(const std::string& run) {
  if (!fs::is_directory(run)) return UsageError("report", run + ": no such run directory");
  auto state = pipeline::ReadPipelineState(pipeline::StatePath(run));
  if (!state) return UsageError("report", state.error());
  const fs::path out_dir = fs::path(run) / "report";
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) return UsageError("report", out_dir.string() + ": " + ec.message());
  std::ostringstream warnings;
  auto rated = arena::RateRun(run, 1.0, warnings);
  // No ratings yet (bad input, e.g. no match played) is part of the report; a failure to
  // compute or write them is an error.
  if (!rated && rated.kind() == util::ErrorKind::kFailure) {
    return CommandError("report", rated.error_value());
  }
  // The charts come after the summary's text; without them the summary is still written,
  // and the report then fails (exit 1) naming what is missing.
  auto drawn = charts::DrawRunCharts(run, out_dir.string());
  const std::string text = pipeline::RunSummaryText(run, state.value(), rated) + "\n" +
                           (drawn ? drawn.value() : "charts not drawn (see the error)") + "\n";
  const std::string summary = (out_dir / "summary.txt").string();
  if (util::Status e = util::WriteFileAtomic(summary, text); !e.ok()) {
    return CommandError("report", {e.error(), util::ErrorKind::kFailure});
  }
  std::cout << text << "wrote " << summary << "\n";
  std::istringstream w(warnings.str());
  for (std::string l; std::getline(w, l);) std::cerr << "veletas report: " << l << "\n";
  if (!drawn) return CommandError("report", {drawn.error(), util::ErrorKind::kFailure});
  return 0;
}

CommandRun SetupReport(CLI::App& cmd) {
  auto run = std::make_shared<std::string>();
  Required(cmd.add_option("RUN_DIR", *run, "the pipeline's run directory"));
  return [run] { return RunReport(*run); };
}

}  // namespace

VELETAS_CLI_COMMAND(
    report, "report",
    "summary of a pipeline run with charts (Elo, losses, speed, gate) in RUN_DIR/report/",
    SetupReport);

}  // namespace veletas::app
