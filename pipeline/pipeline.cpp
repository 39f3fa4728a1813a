#include "app/pipeline.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include "app/pipeline_run.h"
#include "app/pipeline_state.h"
#include "app/status_line.h"
#include "model/model_files.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/names.h"
#include "util/run_dir.h"

namespace veletas::app {
namespace pipeline_internal {

// CPU time of this process (all threads, user and system), in seconds.
double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

std::string Numbered(const std::string& prefix, long long n) {
  return fmt::format("{}{:04}", prefix, n);
}

namespace {

// The first line where two texts differ, for the config-changed error.
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "";
    if (!ga) la = "(end)";
    if (!gb) lb = "(end)";
    if (la != lb) {
      return "line " + std::to_string(line) + ": run has \"" + la + "\", config has \"" + lb + "\"";
    }
  }
}

}  // namespace

bool Pipeline::Save() {
  PipelineState s = state_;
  s.elapsed_seconds = Elapsed();
  s.cpu_seconds = CpuElapsed();
  const util::Status saved = WritePipelineState(StatePath(run_), s);
  if (!saved.ok()) {
    status_.Clear();
    std::cerr << "veletas pipeline: " << saved.error() << "\n";
    return false;
  }
  return true;
}

void Pipeline::Log(const std::string& line) {
  status_.Clear();
  std::cout << line << std::endl;
  AppendToLog(line);
}

int Pipeline::Fail(int code, const std::string& message) {
  status_.Clear();
  std::cerr << "veletas pipeline: " << message << "\n";
  AppendToLog("error: " + message);
  return code;
}

void Pipeline::AppendToLog(const std::string& line) const {
  // The log is a copy of what was printed: a failure to append to it is not reported.
  util::AppendFile((fs::path(run_) / "logs" / "pipeline.log").string(), line + "\n");
}

GenerationSummary& Pipeline::Current() {
  const long long gen = state_.iteration + 1;
  if (state_.generations.empty() || state_.generations.back().generation != gen) {
    GenerationSummary g;
    g.generation = gen;
    state_.generations.push_back(g);
  }
  return state_.generations.back();
}

int Pipeline::Prepare() {
  // Its paths go into the run's JSON files (sample files in checkpoints, specs in matches).
  if (util::Status utf8 = util::CheckUtf8Path(fs::absolute(run_).string(), "the run directory");
      !utf8.ok()) {
    return Fail(2, utf8.error());
  }
  std::error_code ec;
  for (const char* sub : {"models", "samples", "train", "matches", "logs"}) {
    fs::create_directories(fs::path(run_) / sub, ec);
    if (ec) return Fail(1, run_ + ": cannot create " + sub + "/: " + ec.message());
  }
  // A session killed while writing leaves "<file>.tmp.<pid>" files; nothing else writes
  // here while the lock is held, so every one of them is stale.
  const auto removed = util::LockAndClean(run_, lock_, run_, /*recursive=*/true);
  if (!removed) return Fail(1, removed.error());
  for (const std::string& path : removed.value()) {
    Log(path + ": removed (incomplete file of a killed session)");
  }
  const std::string resolved_path = (fs::path(run_) / "config.resolved.yaml").string();
  const auto previous_read =
      fs::exists(resolved_path) ? util::ReadFile(resolved_path) : util::Result<std::string>("");
  const std::string previous = previous_read.ok() ? previous_read.value() : "";
  if (!previous.empty() && previous != c_.resolved_yaml && !options_.allow_config_change) {
    return Fail(2, c_.source + " differs from the config this run was started with (" +
                       resolved_path + "; " + FirstDifference(previous, c_.resolved_yaml) +
                       "); use the same config, or --allow-config-change to replace it");
  }
  if (util::Status e = util::WriteFileAtomic(resolved_path, c_.resolved_yaml); !e.ok()) {
    return Fail(1, e.error());
  }
  if (fs::exists(StatePath(run_))) {
    auto state = ReadPipelineState(StatePath(run_));
    if (!state) return Fail(2, state.error());
    state_ = state.value();
    Log("resuming " + run_ + ": generation " + std::to_string(state_.iteration + 1) + ", stage " +
        StageName(state_.stage) + ", best generation " + std::to_string(state_.best_generation) +
        ", " + FormatDuration(state_.elapsed_seconds) + " run so far");
    if (state_.stage == PipelineStage::kFinished && options_.allow_config_change) {
      state_.stage = PipelineStage::kSelfplay;
      state_.finished_reason.clear();
    }
  } else {
    Log("new run in " + run_ + " (" + rules::GameName(c_.game.rules, c_.game.size) + ", " +
        std::to_string(c_.model.blocks) + " blocks x " + std::to_string(c_.model.channels) +
        " channels)");
  }
  if (!fs::exists(ModelPath(0))) {
    model::ModelSpec spec{c_.game.rules, c_.game.size, c_.model};
    auto status = model::CreateInitialCheckpoint(ModelPath(0), spec, p_.init_seed);
    if (!status) return Fail(1, status.error());
    Log("created the initial network " + ModelPath(0));
  }
  if (!c_.cluster.redis.empty()) {
    auto cluster = ClusterGames::Start(c_, run_, [this](const std::string& l) { Log(l); });
    if (!cluster) return Fail(cluster.exit_code(), cluster.error());
    cluster_ = std::move(cluster.value());
    // The workers start on the best network at once.
    const long long best = state_.best_generation;
    if (util::Status s = cluster_->NewBest(best, ModelPath(best)); !s.ok()) {
      return Fail(s.exit_code(), s.error());
    }
  }
  return Save() ? 0 : 1;
}

bool Pipeline::BudgetAllowsAnotherIteration(std::string& why) const {
  if (state_.iteration >= p_.generations) {
    why = "trained " + std::to_string(p_.generations) + " generations";
    return false;
  }
  // A generation starts only when the time left likely suffices for it (the mean so far).
  auto fits = [&](double budget_minutes, double used, double GenerationSummary::*per_generation,
                  const char* what) {
    if (budget_minutes <= 0) return true;
    const double budget = budget_minutes * 60.0;
    double mean = 0;
    int n = 0;
    for (const GenerationSummary& g : state_.generations) {
      if (g.iteration_seconds > 0) {
        mean += g.*per_generation;
        ++n;
      }
    }
    if (n > 0) mean /= n;
    if (used + mean <= budget) return true;
    why = std::string(what) + " budget of " + FormatDuration(budget) + " spent (" +
          FormatDuration(used) + " used, a generation takes about " + FormatDuration(mean) + ")";
    return false;
  };
  return fits(p_.time_budget_minutes, Elapsed(), &GenerationSummary::iteration_seconds, "time") &&
         fits(p_.cpu_budget_minutes, CpuElapsed(), &GenerationSummary::cpu_seconds, "CPU time");
}

void Pipeline::LogGenerationDone(const GenerationSummary& g) {
  ComputeShares mine, run;
  mine.Add(g);
  for (const GenerationSummary& s : state_.generations) run.Add(s);
  Log(
      fmt::format("=== generation {} done in {}; best network: gen {}; run time {} ({:.1f} "
                  "CPU-minutes)",
                  g.generation, FormatDuration(g.iteration_seconds), state_.best_generation,
                  FormatDuration(Elapsed()), CpuElapsed() / 60.0));
  Log("  compute: " + FormatComputeShares(mine));
  Log(fmt::format("  compute of the run so far: {:.0f}% learning: {}", 100 * run.LearningShare(),
                  FormatComputeShares(run)));
}

int Pipeline::Finish(const std::string& reason) {
  const long long best = state_.best_generation;
  if (p_.final_ladder && best > 0 && !Rated(best)) {
    Log("final rating of the best network, gen " + std::to_string(best));
    if (int code = StageLadder(best); code != 0) return code;
  }
  state_.stage = PipelineStage::kFinished;
  state_.finished_reason = reason;
  if (!Save()) return 1;
  Log("finished: " + reason + "; best network: gen " + std::to_string(best) + " (" +
      ModelPath(best) + "), " + FormatDuration(Elapsed()) + " in all");
  Log("next: veletas report " + run_ + "   |   veletas play --model " + ModelPath(best));
  return 0;
}

int Pipeline::Run() {
  if (int code = Prepare(); code != 0) return code;
  for (;;) {
    int code = 0;
    switch (state_.stage) {
      case PipelineStage::kFinished:
        Log("the run is finished (" + state_.finished_reason + "); best network: gen " +
            std::to_string(state_.best_generation) +
            ". To train further, raise pipeline.generations or the time budget and pass "
            "--allow-config-change.");
        return 0;
      case PipelineStage::kSelfplay: {
        std::string why;
        if (!BudgetAllowsAnotherIteration(why)) return Finish(why);
        code = StageSelfplay();
        break;
      }
      case PipelineStage::kTrain:
        if (cluster_) cluster_->Stage(Header());
        code = StageTrain();
        break;
      case PipelineStage::kGate:
        if (cluster_) cluster_->Stage(Header());
        code = StageGate();
        break;
      case PipelineStage::kLadder: {
        const long long gen = state_.iteration + 1;
        if (p_.ladder_every > 0 && gen % p_.ladder_every == 0 && !Rated(gen)) {
          code = StageLadder(gen);
          if (code != 0) break;
        }
        GenerationSummary& g = Current();
        g.iteration_seconds =
            g.selfplay_seconds + g.train_seconds + g.gate_seconds + g.ladder_seconds;
        ChargeCpu();
        LogGenerationDone(g);
        state_.iteration += 1;
        state_.stage = PipelineStage::kSelfplay;
        if (!Save()) return 1;
        break;
      }
    }
    if (code != 0) return code;
  }
}

}  // namespace pipeline_internal

std::string GenerationModelPath(const std::string& run_dir, long long generation) {
  return (std::filesystem::path(run_dir) / "models" /
          (pipeline_internal::Numbered("gen_", generation) + ".ckpt"))
      .string();
}

int RunPipeline(const Config& config, const PipelineOptions& options) {
  pipeline_internal::Pipeline pipeline(config, options);
  return pipeline.Run();
}

}  // namespace veletas::app
