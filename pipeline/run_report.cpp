#include "pipeline/run_report.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <system_error>

#include "arena/player_spec.h"
#include "charts/charts.h"
#include "util/atomic_file.h"
#include "util/text.h"

namespace veletas::pipeline {
namespace {

using util::FormatDuration;

// "run DIR: finished (...), best network gen N, run time T".
std::string Headline(const std::string& run, const PipelineState& s) {
  return "run " + run + ": " +
         (s.stage == PipelineStage::kFinished
              ? "finished (" + s.finished_reason + ")"
              : "in progress (generation " + std::to_string(s.iteration + 1) + ", " +
                    StageName(s.stage) + ")") +
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
         FormatComputeShares(compute) + "\n";
}

}  // namespace

std::string RunSummaryText(const std::string& run, const PipelineState& s,
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

util::Result<RatingsReport> RateForPipeline(const std::string& run_dir) {
  std::ostringstream warnings;  // the pipeline shows the table only
  auto rated = arena::RateRun(run_dir, 1.0, warnings);
  if (!rated) return rated.error_value();
  RatingsReport report;
  auto drawn = charts::DrawRatingsChart(rated.value().json_path, rated.value().png_path);
  report.chart_note = drawn ? "" : drawn.error();
  std::ostringstream table;
  arena::PrintLadderTable(rated.value().ladder, table);
  std::istringstream lines(table.str());
  for (std::string l; std::getline(lines, l);) report.table.push_back(l);
  return report;
}

util::Result<WrittenReport> WriteRunReport(const std::string& run) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(run)) return util::Error{run + ": no such run directory"};
  auto state = ReadPipelineState(StatePath(run));
  if (!state) return util::Error{state.error()};
  const fs::path out_dir = fs::path(run) / "report";
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) return util::Error{out_dir.string() + ": " + ec.message()};
  std::ostringstream warnings;
  auto rated = arena::RateRun(run, 1.0, warnings);
  // No ratings yet (bad input, e.g. no match played) is part of the report; a failure to
  // compute or write them is an error.
  if (!rated && rated.kind() == util::ErrorKind::kFailure) return rated.error_value();
  WrittenReport r;
  auto drawn = charts::DrawRunCharts(run, out_dir.string());
  if (!drawn) r.charts = util::Status::Failure(drawn.error());
  r.text = RunSummaryText(run, state.value(), rated) + "\n" +
           (drawn ? drawn.value() : "charts not drawn (see the error)") + "\n";
  r.summary_path = (out_dir / "summary.txt").string();
  if (util::Status e = util::WriteFileAtomic(r.summary_path, r.text); !e.ok()) {
    return util::Error{e.error(), util::ErrorKind::kFailure};
  }
  r.warnings = warnings.str();
  return r;
}

}  // namespace veletas::pipeline
