#include "charts/charts.h"

#include <cstdlib>
#include <vector>

#include "util/subprocess.h"

namespace veletas::charts {
namespace {

// The script's exit codes (charts/veletas_charts.py).
constexpr int kExitBadInput = 2;
constexpr int kExitNoMatplotlib = 3;

// Interpreters to try, in order.
std::vector<std::string> Interpreters() {
  if (const char* chosen = std::getenv("VELETAS_PYTHON"); chosen != nullptr && *chosen != 0) {
    return {chosen};
  }
  return {"/usr/bin/python3", "python3"};
}

// Drops the trailing newline of the script's output.
std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// Runs the embedded script with `args` with the first interpreter that has matplotlib.
util::Result<std::string> RunScript(const std::vector<std::string>& args) {
  using R = util::Result<std::string>;
  std::string tried;
  for (const std::string& python : Interpreters()) {
    std::vector<std::string> argv = {python, "-c", std::string(ChartsScript())};
    argv.insert(argv.end(), args.begin(), args.end());
    auto run = util::RunProcess(argv);
    if (!run) return R::Failure("charts not drawn: " + run.error());
    const util::ProcessResult& p = run.value();
    if (p.exit_code == util::kCannotRun || p.exit_code == kExitNoMatplotlib) {
      tried += "\n  " + Trimmed(p.output);
      continue;
    }
    if (p.exit_code == 0) return Trimmed(p.output);
    const std::string what = "charts not drawn (" + python + " exited with status " +
                             std::to_string(p.exit_code) + "):\n" + Trimmed(p.output);
    return p.exit_code == kExitBadInput ? R::Error(what) : R::Failure(what);
  }
  return R::Failure(
      "charts not drawn: no Python 3 with matplotlib (install Debian's python3-matplotlib, or "
      "set VELETAS_PYTHON to a Python that has it); tried:" +
      tried);
}

}  // namespace

util::Result<std::string> DrawRunCharts(const std::string& run_dir, const std::string& out_dir) {
  return RunScript({"report", run_dir, out_dir});
}

util::Result<std::string> DrawRatingsChart(const std::string& ratings_json,
                                           const std::string& png) {
  return RunScript({"ratings", ratings_json, png});
}

util::Result<std::string> DrawLossChart(const std::string& metrics_jsonl, const std::string& png) {
  return RunScript({"losses", metrics_jsonl, png});
}

}  // namespace veletas::charts
