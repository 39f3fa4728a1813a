// Internal to the pipeline (app/pipeline.cpp, app/pipeline_stages.cpp): the run of one
// pipeline session, stage by stage. Not for other files; RunPipeline (app/pipeline.h) is the
// interface.
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/arena_models.h"
#include "app/cluster_games.h"
#include "app/config.h"
#include "app/pipeline.h"
#include "app/pipeline_state.h"
#include "app/status_line.h"
#include "arena/arena.h"
#include "selfplay/selfplay_engine.h"
#include "util/clock.h"
#include "util/result.h"
#include "util/run_dir.h"

namespace veletas::app::pipeline_internal {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// CPU time of this process (all threads, user and system), in seconds.
double ProcessCpuSeconds();

// prefix + n with at least four digits: Numbered("iter_", 3) = "iter_0003".
std::string Numbered(const std::string& prefix, long long n);

class Pipeline {
 public:
  Pipeline(const Config& config, const PipelineOptions& options)
      : c_(config), p_(config.pipeline), run_(options.run_dir), options_(options) {}

  int Run();

 private:
  std::string ModelPath(long long gen) const { return GenerationModelPath(run_, gen); }
  std::string SamplesDir(long long iteration) const {
    return (fs::path(run_) / "samples" / Numbered("iter_", iteration)).string();
  }
  std::string Header() const {
    return "gen " + std::to_string(state_.iteration + 1) + " | " + StageName(state_.stage);
  }
  double Elapsed() const { return state_.elapsed_seconds + util::SecondsSince(session_start_); }
  double CpuElapsed() const {
    return state_.cpu_seconds + ProcessCpuSeconds() - session_cpu_start_;
  }
  // Adds the CPU time since the last call (or the session's start) to the generation in
  // progress.
  void ChargeCpu() {
    const double now = ProcessCpuSeconds();
    Current().cpu_seconds += now - cpu_mark_;
    cpu_mark_ = now;
  }
  // Saves state.json with the elapsed time; false (after printing) on failure.
  bool Save();
  void Log(const std::string& line);
  int Fail(int code, const std::string& message);
  void AppendToLog(const std::string& line) const;
  bool Rated(long long gen) const {
    return std::find(state_.rated_generations.begin(), state_.rated_generations.end(), gen) !=
           state_.rated_generations.end();
  }
  // The arena player of generation `gen` of this run (its network loaded through `models`,
  // played with arena.simulations).
  util::Result<arena::ArenaPlayer> GenerationPlayer(ArenaModels& models, long long gen) const;

  int Prepare();
  bool BudgetAllowsAnotherIteration(std::string& why) const;
  int StageSelfplay();
  // Sets the next self-play's resignation threshold from the no-resign games of `s`
  // (selfplay.resign_false_positive_target).
  void CalibrateResignation(const selfplay::SelfplayStats& s);
  int StageSelfplayFromCluster();
  // The self-play networks so far, newest (the best now) first: generation and checkpoint.
  std::vector<std::pair<long long, std::string>> Bests() const;
  // Where arena games are played: the cluster's workers, or this process (null).
  arena::RemoteGames* RemoteArena() { return cluster_ ? cluster_->Arena() : nullptr; }
  int StageTrain();
  int StageGate();
  int StageLadder(long long generation);
  int Finish(const std::string& reason);
  // The generation's closing lines: time, best network, and where the compute went.
  void LogGenerationDone(const GenerationSummary& g);
  GenerationSummary& Current();

  const Config& c_;
  const PipelineConfig& p_;
  std::string run_;
  PipelineOptions options_;
  PipelineState state_;
  Clock::time_point session_start_ = Clock::now();
  double session_cpu_start_ = ProcessCpuSeconds();
  double cpu_mark_ = session_cpu_start_;
  StatusLine status_;
  util::DirectoryLock lock_;
  std::unique_ptr<ClusterGames> cluster_;  // a cluster run (config section `cluster`)
};

}  // namespace veletas::app::pipeline_internal
