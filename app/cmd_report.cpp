// `veletas report RUN_DIR`: a summary of a pipeline run: one line per generation (self-play,
// training losses, gate decision, Elo with its 95% interval), the anchors' ratings, and the
// charts of charts/veletas_charts.py (Elo by generation, losses, speed, gate decisions),
// written to RUN_DIR/report/ (pipeline/run_report.h WriteRunReport).
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "pipeline/run_report.h"

namespace veletas::app {
namespace {

int RunReport(const std::string& run) {
  auto report = pipeline::WriteRunReport(run);
  if (!report) return CommandError("report", report.error_value());
  const pipeline::WrittenReport& r = report.value();
  std::cout << r.text << "wrote " << r.summary_path << "\n";
  std::istringstream w(r.warnings);
  for (std::string l; std::getline(w, l);) std::cerr << "veletas report: " << l << "\n";
  if (!r.charts.ok()) return CommandError("report", r.charts.error_value());
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
