#include "pipeline/pipeline.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <vector>

#include "pipeline/pipeline_run.h"
#include "pipeline/pipeline_state.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/names.h"
#include "util/run_dir.h"
#include "util/text.h"

namespace veletas::pipeline {

double SystemClock::WallSeconds() {
  return std::chrono::duration<double>(util::SteadyClock::now().time_since_epoch()).count();
}

double SystemClock::CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

namespace internal {

using util::FormatDuration;

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

util::Status Pipeline::Save() {
  PipelineState s = state_;
  s.elapsed_seconds = Elapsed();
  s.cpu_seconds = CpuElapsed();
  const util::Status saved = WritePipelineState(StatePath(run_), s);
  if (!saved.ok()) return util::Error{saved.error(), util::ErrorKind::kFailure};
  return util::Ok();
}

void Pipeline::Log(const std::string& line) {
  services_.reporter.Line(line);
  AppendToLog(line);
}

util::Status Pipeline::Fail(const util::Error& error) {
  AppendToLog("error: " + error.message);
  return error;
}

void Pipeline::AppendToLog(const std::string& line) const {
  // The log is a copy of what was reported: a failure to append to it is not reported.
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

util::Status Pipeline::PrepareDirectory() {
  using util::ErrorKind;
  // Its paths go into the run's JSON files (sample files in checkpoints, specs in matches).
  if (util::Status utf8 = util::CheckUtf8Path(fs::absolute(run_).string(), "the run directory");
      !utf8.ok()) {
    return Fail(ErrorKind::kBadInput, utf8.error());
  }
  std::error_code ec;
  for (const char* sub : {"models", "samples", "train", "matches", "logs"}) {
    fs::create_directories(fs::path(run_) / sub, ec);
    if (ec)
      return Fail(ErrorKind::kFailure, run_ + ": cannot create " + sub + "/: " + ec.message());
  }
  // A session killed while writing leaves "<file>.tmp.<pid>" files; nothing else writes
  // here while the lock is held, so every one of them is stale.
  const auto removed = util::LockAndClean(run_, lock_, run_, /*recursive=*/true);
  if (!removed) return Fail(ErrorKind::kFailure, removed.error());
  for (const std::string& path : removed.value()) {
    Log(path + ": removed (incomplete file of a killed session)");
  }
  return util::Ok();
}

util::Status Pipeline::CheckConfig() {
  const std::string resolved_path = (fs::path(run_) / "config.resolved.yaml").string();
  const auto previous_read =
      fs::exists(resolved_path) ? util::ReadFile(resolved_path) : util::Result<std::string>("");
  const std::string previous = previous_read.ok() ? previous_read.value() : "";
  if (!previous.empty() && previous != c_.resolved_yaml && !options_.allow_config_change) {
    return Fail(util::ErrorKind::kBadInput,
                c_.source + " differs from the config this run was started with (" + resolved_path +
                    "; " + FirstDifference(previous, c_.resolved_yaml) +
                    "); use the same config, or --allow-config-change to replace it");
  }
  if (util::Status e = util::WriteFileAtomic(resolved_path, c_.resolved_yaml); !e.ok()) {
    return Fail(util::ErrorKind::kFailure, e.error());
  }
  return util::Ok();
}

util::Status Pipeline::LoadState() {
  if (fs::exists(StatePath(run_))) {
    auto state = ReadPipelineState(StatePath(run_));
    if (!state) return Fail(util::ErrorKind::kBadInput, state.error());
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
    if (util::Status created = services_.networks.CreateInitial(ModelPath(0), p_.init_seed);
        !created.ok()) {
      return Fail(util::ErrorKind::kFailure, created.error());
    }
    Log("created the initial network " + ModelPath(0));
  }
  return util::Ok();
}

util::Status Pipeline::StartCluster() {
  if (c_.cluster.redis.empty()) return util::Ok();
  if (!services_.start_cluster) {
    return Fail(util::ErrorKind::kBadInput, c_.source + ": this build cannot run a cluster");
  }
  auto cluster = services_.start_cluster([this](const std::string& l) { Log(l); });
  if (!cluster) return Fail(cluster.error_value());
  cluster_ = std::move(cluster.value());
  // The workers start on the best network at once.
  const long long best = state_.best_generation;
  if (util::Status s = cluster_->NewBest(best, ModelPath(best)); !s.ok()) {
    return Fail(s.error_value());
  }
  return util::Ok();
}

util::Status Pipeline::Prepare() {
  for (util::Status (Pipeline::*step)() : {&Pipeline::PrepareDirectory, &Pipeline::CheckConfig,
                                           &Pipeline::LoadState, &Pipeline::StartCluster}) {
    if (util::Status s = (this->*step)(); !s.ok()) return s;
  }
  return Save();
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

util::Status Pipeline::CloseIteration() {
  const long long gen = state_.iteration + 1;
  if (p_.ladder_every > 0 && gen % p_.ladder_every == 0 && !Rated(gen)) {
    if (util::Status s = StageLadder(gen); !s.ok()) return s;
  }
  GenerationSummary& g = Current();
  g.iteration_seconds = g.selfplay_seconds + g.train_seconds + g.gate_seconds + g.ladder_seconds;
  ChargeCpu();
  LogGenerationDone(g);
  state_.iteration += 1;
  state_.stage = PipelineStage::kSelfplay;
  return Save();
}

util::Status Pipeline::Finish(const std::string& reason) {
  const long long best = state_.best_generation;
  if (p_.final_ladder && best > 0 && !Rated(best)) {
    Log("final rating of the best network, gen " + std::to_string(best));
    if (util::Status s = StageLadder(best); !s.ok()) return s;
  }
  state_.stage = PipelineStage::kFinished;
  state_.finished_reason = reason;
  if (util::Status s = Save(); !s.ok()) return s;
  Log("finished: " + reason + "; best network: gen " + std::to_string(best) + " (" +
      ModelPath(best) + "), " + FormatDuration(Elapsed()) + " in all");
  Log("next: veletas report " + run_ + "   |   veletas play --model " + ModelPath(best));
  return util::Ok();
}

util::Status Pipeline::Run() {
  if (util::Status s = Prepare(); !s.ok()) return s;
  for (;;) {
    util::Status s = util::Ok();
    switch (state_.stage) {
      case PipelineStage::kFinished:
        Log("the run is finished (" + state_.finished_reason + "); best network: gen " +
            std::to_string(state_.best_generation) +
            ". To train further, raise pipeline.generations or the time budget and pass "
            "--allow-config-change.");
        return util::Ok();
      case PipelineStage::kSelfplay: {
        std::string why;
        if (!BudgetAllowsAnotherIteration(why)) return Finish(why);
        s = StageSelfplay();
        break;
      }
      case PipelineStage::kTrain:
        if (cluster_) cluster_->Stage(Header());
        s = StageTrain();
        break;
      case PipelineStage::kGate:
        if (cluster_) cluster_->Stage(Header());
        s = StageGate();
        break;
      case PipelineStage::kLadder:
        s = CloseIteration();
        break;
    }
    if (!s.ok()) return s;
    if (options_.stop_after_stage && options_.stop_after_stage()) return util::Ok();
  }
}

}  // namespace internal

std::string GenerationModelPath(const std::string& run_dir, long long generation) {
  return (std::filesystem::path(run_dir) / "models" /
          (internal::Numbered("gen_", generation) + ".ckpt"))
      .string();
}

util::Status RunPipeline(const config::Config& config, const PipelineOptions& options,
                         PipelineServices& services) {
  internal::Pipeline pipeline(config, options, services);
  return pipeline.Run();
}

}  // namespace veletas::pipeline
