// `veletas report RUN_DIR`: a summary of a pipeline run: one line per generation (self-play,
// training losses, gate decision, Elo with its 95% interval), the anchors' ratings, and the
// charts of charts/veletas_charts.py (Elo by generation, losses, speed, gate decisions),
// written to RUN_DIR/report/.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "app/cli.h"
#include "app/command.h"
#include "app/pipeline_state.h"
#include "app/run_ratings.h"
#include "app/status_line.h"
#include "arena/player_spec.h"
#include "charts/charts.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;

int RunReport(const std::string& run) {
  if (!fs::is_directory(run)) return UsageError("report", run + ": no such run directory");
  auto state = ReadPipelineState(StatePath(run));
  if (!state) return UsageError("report", state.error());
  const PipelineState& s = state.value();
  const fs::path out_dir = fs::path(run) / "report";
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) return UsageError("report", out_dir.string() + ": " + ec.message());

  std::ostringstream text;
  std::ostringstream warnings;
  auto rated = RateRun(run, 1.0, warnings);
  // No ratings yet (bad input, e.g. no match played) is part of the report; a failure to
  // compute or write them is an error.
  if (!rated && rated.kind() == util::ErrorKind::kFailure) {
    std::cerr << "veletas report: " << rated.error() << "\n";
    return 1;
  }
  std::map<std::string, const arena::PlayerRating*> elo;
  if (rated) {
    for (const arena::PlayerRating& p : rated.value().ladder.players) elo[p.name] = &p;
  }
  text << "run " << run << ": "
       << (s.stage == PipelineStage::kFinished
               ? "finished (" + s.finished_reason + ")"
               : std::string("in progress (generation ") + std::to_string(s.iteration + 1) + ", " +
                     StageName(s.stage) + ")")
       << ", best network gen " << s.best_generation << ", run time "
       << FormatDuration(s.elapsed_seconds) << "\n\n";
  char line[400];
  std::snprintf(line, sizeof line, "%4s %7s %8s %6s %7s %7s %7s  %-18s %-26s\n", "gen", "games",
                "samples", "steps", "loss", "policy", "value", "gate", "Elo (random = 0)");
  text << line;
  for (const GenerationSummary& g : s.generations) {
    char gate[64] = "-";
    if (g.gated_against >= 0) {
      std::snprintf(gate, sizeof gate, "%s %d/%d vs %lld", g.promoted ? "promoted" : "rejected",
                    g.gate_wins, g.gate_games, static_cast<long long>(g.gated_against));
    } else if (g.promoted) {
      std::snprintf(gate, sizeof gate, "promoted");
    }
    char rating[64] = "-";
    auto it = elo.find(arena::GenerationName(g.generation));
    if (it != elo.end() && it->second->rated) {
      std::snprintf(rating, sizeof rating, "%+.0f [%+.0f, %+.0f]", it->second->elo,
                    it->second->ci_low, it->second->ci_high);
    }
    std::snprintf(line, sizeof line, "%4lld %7lld %8lld %6lld %7.3f %7.3f %7.3f  %-18s %-26s\n",
                  static_cast<long long>(g.generation), static_cast<long long>(g.selfplay_games),
                  static_cast<long long>(g.selfplay_samples), static_cast<long long>(g.train_steps),
                  g.loss_total, g.loss_policy, g.loss_value, gate, rating);
    text << line;
  }
  ComputeShares compute;
  for (const GenerationSummary& g : s.generations) compute.Add(g);
  std::snprintf(line, sizeof line,
                "\ncompute: %.0f%% learning (self-play and training), %.1f CPU-minutes\n  ",
                100 * compute.LearningShare(), s.cpu_seconds / 60.0);
  text << line << FormatComputeShares(compute) << "\n";
  if (rated) {
    text << "\nrating ladder (" << rated.value().matches << " matches):\n";
    PrintLadderTable(rated.value().ladder, text);
  } else {
    text << "\nno ratings yet: " << rated.error() << "\n";
  }
  // The charts come after the summary's text; without them the summary is still written,
  // and the report then fails (exit 1) naming what is missing.
  auto drawn = charts::DrawRunCharts(run, out_dir.string());
  text << "\n" << (drawn ? drawn.value() : "charts not drawn (see the error)") << "\n";
  const std::string summary = (out_dir / "summary.txt").string();
  if (util::Status e = util::WriteFileAtomic(summary, text.str()); !e.ok()) {
    std::cerr << "veletas report: " << e.error() << "\n";
    return 1;
  }
  std::cout << text.str() << "wrote " << summary << "\n";
  std::istringstream w(warnings.str());
  for (std::string l; std::getline(w, l);) std::cerr << "veletas report: " << l << "\n";
  if (!drawn) {
    std::cerr << "veletas report: " << drawn.error() << "\n";
    return 1;
  }
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
