#include "pipeline/pipeline_state.h"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "util/atomic_file.h"
#include "util/json.h"

namespace veletas::pipeline {
namespace {

constexpr const char* kStageNames[] = {"selfplay", "train", "gate", "ladder", "finished"};

nlohmann::json ToJson(const GenerationSummary& g) {
  return {{"generation", g.generation},
          {"selfplay_games", g.selfplay_games},
          {"selfplay_samples", g.selfplay_samples},
          {"selfplay_seconds", g.selfplay_seconds},
          {"selfplay_network_evaluations", g.selfplay_network_evaluations},
          {"swap_rate", g.swap_rate},
          {"resign_threshold", g.resign_threshold},
          {"train_samples", g.train_samples},
          {"gate_evaluations", g.gate_evaluations},
          {"ladder_evaluations", g.ladder_evaluations},
          {"cpu_seconds", g.cpu_seconds},
          {"train_steps", g.train_steps},
          {"loss_total", g.loss_total},
          {"loss_policy", g.loss_policy},
          {"loss_value", g.loss_value},
          {"train_seconds", g.train_seconds},
          {"gated_against", g.gated_against},
          {"promoted", g.promoted},
          {"gate_games", g.gate_games},
          {"gate_wins", g.gate_wins},
          {"gate_reason", g.gate_reason},
          {"gate_seconds", g.gate_seconds},
          {"ladder_seconds", g.ladder_seconds},
          {"iteration_seconds", g.iteration_seconds}};
}

// The generation summary of `j` (named `path` in errors); an error goes to `parent`.
GenerationSummary FromJson(const nlohmann::json& j, const std::string& path,
                           util::JsonFields& parent) {
  util::JsonFields f(j, path);
  GenerationSummary g;
  g.generation = f.Integer<int64_t>("generation");
  g.selfplay_games = f.Integer<int64_t>("selfplay_games");
  g.selfplay_samples = f.Integer<int64_t>("selfplay_samples");
  g.selfplay_seconds = f.Number("selfplay_seconds");
  g.selfplay_network_evaluations = f.IntegerOr<int64_t>("selfplay_network_evaluations", 0);
  g.train_steps = f.Integer<int64_t>("train_steps");
  g.loss_total = f.Number("loss_total");
  g.loss_policy = f.Number("loss_policy");
  g.loss_value = f.Number("loss_value");
  g.train_seconds = f.Number("train_seconds");
  g.gated_against = f.Integer<int64_t>("gated_against");
  g.promoted = f.Bool("promoted");
  g.gate_games = f.Integer<int>("gate_games");
  g.gate_wins = f.Integer<int>("gate_wins");
  g.gate_reason = f.String("gate_reason");
  g.gate_seconds = f.Number("gate_seconds");
  g.ladder_seconds = f.Number("ladder_seconds");
  g.iteration_seconds = f.Number("iteration_seconds");
  // Added later: optional, so that earlier runs resume.
  g.swap_rate = f.NumberOr("swap_rate", 0.0);
  g.resign_threshold = f.NumberOr("resign_threshold", -1.0);
  g.train_samples = f.IntegerOr<int64_t>("train_samples", 0);
  g.gate_evaluations = f.IntegerOr<uint64_t>("gate_evaluations", 0);
  g.ladder_evaluations = f.IntegerOr<uint64_t>("ladder_evaluations", 0);
  g.cpu_seconds = f.NumberOr("cpu_seconds", 0.0);
  if (!f.ok()) parent.Fail(f.error());
  return g;
}

}  // namespace

const char* StageName(PipelineStage stage) { return kStageNames[static_cast<int>(stage)]; }

double ComputeShares::LearningShare() const {
  const double total = Seconds();
  return total > 0 ? (selfplay_seconds + train_seconds) / total : 0.0;
}

void ComputeShares::Add(const GenerationSummary& g) {
  selfplay_seconds += g.selfplay_seconds;
  train_seconds += g.train_seconds;
  gate_seconds += g.gate_seconds;
  ladder_seconds += g.ladder_seconds;
  selfplay_evaluations += static_cast<uint64_t>(g.selfplay_network_evaluations);
  gate_evaluations += g.gate_evaluations;
  ladder_evaluations += g.ladder_evaluations;
  train_samples += g.train_samples;
}

namespace {

// 1234 -> "1.23k", 1234567 -> "1.23M".
std::string Count(double n) {
  if (n >= 1e6) return fmt::format("{:.2f}M", n / 1e6);
  if (n >= 1e3) return fmt::format("{:.1f}k", n / 1e3);
  return fmt::format("{:.0f}", n);
}

}  // namespace

std::string FormatComputeShares(const ComputeShares& c) {
  const double total = std::max(c.Seconds(), 1e-9);
  auto part = [&](const char* name, double seconds, double count, const char* unit) {
    return fmt::format("{} {:.0f}% ({} {})", name, 100.0 * seconds / total, Count(count), unit);
  };
  return part("self-play", c.selfplay_seconds, static_cast<double>(c.selfplay_evaluations),
              "evals") +
         ", " + part("training", c.train_seconds, static_cast<double>(c.train_samples), "samples") +
         ", " + part("gate", c.gate_seconds, static_cast<double>(c.gate_evaluations), "evals") +
         ", " +
         part("ladder", c.ladder_seconds, static_cast<double>(c.ladder_evaluations), "evals");
}

std::string StatePath(const std::string& run_dir) {
  return (std::filesystem::path(run_dir) / "state.json").string();
}

util::Result<PipelineState> ReadPipelineState(const std::string& path) {
  const auto read = util::ReadFile(path);
  if (!read) return read.error_value();
  return PipelineStateFromText(read.value(), path);
}

util::Result<PipelineState> PipelineStateFromText(std::string_view text, const std::string& path) {
  using R = util::Result<PipelineState>;
  const util::Result<nlohmann::json> parsed = util::ParseJson(text, path);
  if (!parsed) return parsed.error_value();
  util::JsonFields f(parsed.value(), "");
  const std::string format = f.String("format");
  const int version = f.Integer<int>("version");
  if (f.ok() && (format != "veletas-pipeline-state" || version != 1)) {
    return R::Error(path + ": not a version 1 pipeline state");
  }
  PipelineState s;
  s.iteration = f.Integer<int64_t>("iteration");
  const std::string stage = f.String("stage");
  s.best_generation = f.Integer<int64_t>("best_generation");
  s.elapsed_seconds = f.Number("elapsed_seconds");
  s.finished_reason = f.String("finished_reason");
  if (const nlohmann::json* gens = f.Array("generations"); gens != nullptr) {
    for (size_t i = 0; i < gens->size() && f.ok(); ++i) {
      s.generations.push_back(FromJson((*gens)[i], "generations[" + std::to_string(i) + "]", f));
    }
  }
  if (const nlohmann::json* rated = f.Array("rated_generations"); rated != nullptr) {
    for (size_t i = 0; i < rated->size() && f.ok(); ++i) {
      s.rated_generations.push_back(
          f.IntegerOf<long long>((*rated)[i], "rated_generations[" + std::to_string(i) + "]"));
    }
  }
  s.cpu_seconds = f.NumberOr("cpu_seconds", 0.0);
  s.resign_threshold = f.NumberOr("resign_threshold", -1.0);
  s.resign_calibrated = f.BoolOr("resign_calibrated", false);
  if (!f.ok()) return R::Error(path + ": corrupt pipeline state: " + f.error());
  bool known = false;
  for (int i = 0; i < 5; ++i) {
    if (stage == kStageNames[i]) {
      s.stage = static_cast<PipelineStage>(i);
      known = true;
    }
  }
  if (!known) return R::Error(path + ": unknown stage \"" + stage + "\"");
  if (s.iteration < 0 || s.best_generation < 0 || s.best_generation > s.iteration + 1 ||
      s.elapsed_seconds < 0) {
    return R::Error(path + ": inconsistent values");
  }
  return s;
}

util::Status WritePipelineState(const std::string& path, const PipelineState& s) {
  nlohmann::json gens = nlohmann::json::array();
  for (const GenerationSummary& g : s.generations) gens.push_back(ToJson(g));
  const nlohmann::json j = {{"format", "veletas-pipeline-state"},
                            {"version", 1},
                            {"iteration", s.iteration},
                            {"stage", StageName(s.stage)},
                            {"best_generation", s.best_generation},
                            {"elapsed_seconds", s.elapsed_seconds},
                            {"finished_reason", s.finished_reason},
                            {"generations", gens},
                            {"rated_generations", s.rated_generations},
                            {"cpu_seconds", s.cpu_seconds},
                            {"resign_threshold", s.resign_threshold},
                            {"resign_calibrated", s.resign_calibrated}};
  return util::WriteFileAtomic(path, j.dump(1) + "\n");
}

}  // namespace veletas::pipeline
