// `veletas report RUN_DIR`: a summary of a pipeline run: one line per generation (self-play,
// training losses, gate decision, Elo with its 95% interval), the anchors' ratings, and the
// charts of charts/veletas_charts.py (Elo by generation, losses, speed, gate decisions),
// written to RUN_DIR/report/.
#include <fmt/format.h>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "app/cli.h"
#include "app/command.h"
#include "arena/player_spec.h"
#include "arena/run_ratings.h"
#include "charts/charts.h"
#include "pipeline/pipeline_state.h"
#include "util/atomic_file.h"
#include "util/text.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;
using pipeline::ComputeShares;
using pipeline::GenerationSummary;
using pipeline::PipelineStage;
using pipeline::PipelineState;
using util::FormatDuration;

// "run DIR: finished (...), best network gen N, run time T".
std::string Headline(const std::string& run, const PipelineState& s) {
  return "run " + run + ": " +
         (s.stage == PipelineStage::kFinished
              ? "finished (" + s.finished_reason + ")"
              : "in progress (generation " + std::to_string(s.iteration + 1) + ", " +
                    pipeline::StageName(s.stage) + ")") +
         ", best network gen " + std::to_string(s.best_generation) + ", run time " +
         FormatDuration(s.elapsed_seconds) + "\n";
}

// One line per generation: self-play, training losses, gate decision, Elo with its 95%
// interval (from `ladder` when the generation is rated).
std::string GenerationTable(const PipelineState& s, const arena::Ladder* ladder) {
  std::map<std::string, const arena::PlayerRating*> elo;
  if (ladder != nullptr) {
    for (const arena::PlayerRating& p : ladder->players) elo[p.name] = &p;
  }
  std::string text =
      fmt::format("{:>4} {:>7} {:>8} {:>6} {:>7} {:>7} {:>7}  {:<18} {:<26}\n", "gen", "games",
                  "samples", "steps", "loss", "policy", "value", "gate", "Elo (random = 0)");
  for (const GenerationSummary& g : s.generations) {
    std::string gate = "-";
    if (g.gated_against >= 0) {
      gate = fmt::format("{} {}/{} vs {}", g.promoted ? "promoted" : "rejected", g.gate_wins,
                         g.gate_games, g.gated_against);
    } else if (g.promoted) {
      gate = "promoted";
    }
    std::string rating = "-";
    auto it = elo.find(arena::GenerationName(g.generation));
    if (it != elo.end() && it->second->rated) {
      rating = fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", it->second->elo, it->second->ci_low,
                           it->second->ci_high);
    }
    text += fmt::format("{:4} {:7} {:8} {:6} {:7.3f} {:7.3f} {:7.3f}  {:<18} {:<26}\n",
                        g.generation, g.selfplay_games, g.selfplay_samples, g.train_steps,
                        g.loss_total, g.loss_policy, g.loss_value, gate, rating);
  }
  return text;
}

std::string ComputeText(const PipelineState& s) {
  ComputeShares compute;
  for (const GenerationSummary& g : s.generations) compute.Add(g);
  return fmt::format("compute: {:.0f}% learning (self-play and training), {:.1f} CPU-minutes\n  ",
                     100 * compute.LearningShare(), s.cpu_seconds / 60.0) +
         pipeline::FormatComputeShares(compute) + "\n";
}

// The summary's text without the charts' line.
std::string SummaryText(const std::string& run, const PipelineState& s,
                        const util::Result<arena::RunRatings>& rated) {
  std::ostringstream text;
  text << Headline(run, s) << "\n"
       << GenerationTable(s, rated ? &rated.value().ladder : nullptr) << "\n"
       << ComputeText(s);
  if (rated) {
    text << "\nrating ladder (" << rated.value().matches << " matches):\n";
    arena::PrintLadderTable(rated.value().ladder, text);
  } else {
    text << "\nno ratings yet: " << rated.error() << "\n";
  }
  return text.str();
}

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
  const std::string text = SummaryText(run, state.value(), rated) + "\n" +
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
