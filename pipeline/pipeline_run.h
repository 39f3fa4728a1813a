// Internal to the pipeline (pipeline/pipeline.cpp, pipeline/pipeline_stages.cpp): the run of
// one pipeline session, stage by stage. Not for other files; RunPipeline (pipeline/pipeline.h)
// is the interface.
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arena/arena.h"
#include "config/config.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_state.h"
#include "selfplay/selfplay_engine.h"
#include "util/result.h"
#include "util/run_dir.h"

namespace veletas::pipeline::internal {

namespace fs = std::filesystem;

// prefix + n with at least four digits: Numbered("iter_", 3) = "iter_0003".
std::string Numbered(const std::string& prefix, long long n);

class Pipeline {
 public:
  Pipeline(const config::Config& config, const PipelineOptions& options, PipelineServices& services)
      : c_(config),
        p_(config.pipeline),
        run_(options.run_dir),
        options_(options),
        services_(services),
        clock_(services.clock),
        session_start_(clock_.WallSeconds()),
        session_cpu_start_(clock_.CpuSeconds()),
        cpu_mark_(session_cpu_start_) {}

  util::Status Run();

 private:
  std::string ModelPath(long long gen) const { return GenerationModelPath(run_, gen); }
  std::string SamplesDir(long long iteration) const {
    return (fs::path(run_) / "samples" / Numbered("iter_", iteration)).string();
  }
  std::string Header() const {
    return "gen " + std::to_string(state_.iteration + 1) + " | " + StageName(state_.stage);
  }
  double Elapsed() const { return state_.elapsed_seconds + clock_.WallSeconds() - session_start_; }
  double CpuElapsed() const {
    return state_.cpu_seconds + clock_.CpuSeconds() - session_cpu_start_;
  }
  // Adds the CPU time since the last call (or the session's start) to the generation in
  // progress.
  void ChargeCpu() {
    const double now = clock_.CpuSeconds();
    Current().cpu_seconds += now - cpu_mark_;
    cpu_mark_ = now;
  }
  // Saves state.json with the elapsed time; a failure on error.
  util::Status Save();
  // Reports `line` and appends it to the run's log.
  void Log(const std::string& line);
  void Progress(const std::string& text) { services_.reporter.Progress(text); }
  // Appends "error: <message>" to the run's log and returns the error.
  util::Status Fail(const util::Error& error);
  util::Status Fail(util::ErrorKind kind, const std::string& message) {
    return Fail(util::Error{message, kind});
  }
  void AppendToLog(const std::string& line) const;
  bool Rated(long long gen) const {
    return std::find(state_.rated_generations.begin(), state_.rated_generations.end(), gen) !=
           state_.rated_generations.end();
  }
  // The arena player of generation `gen` of this run (its network loaded through
  // `networks`, played with arena.simulations).
  util::Result<arena::ArenaPlayer> GenerationPlayer(ArenaNetworks& networks, long long gen) const;

  // Prepare's steps: the run directory (created, locked, cleaned), the config (the run's, or
  // a change that is allowed), the state (read or new), the initial network, the cluster.
  util::Status Prepare();
  util::Status PrepareDirectory();
  util::Status CheckConfig();
  util::Status LoadState();
  util::Status StartCluster();

  bool BudgetAllowsAnotherIteration(std::string& why) const;
  util::Status StageSelfplay();
  // Sets the next self-play's resignation threshold from the no-resign games of `s`
  // (selfplay.resign_false_positive_target).
  void CalibrateResignation(const selfplay::SelfplayStats& s);
  util::Status StageSelfplayFromCluster();
  // The self-play networks so far, newest (the best now) first: generation and checkpoint.
  std::vector<std::pair<long long, std::string>> Bests() const;
  // Where arena games are played: the cluster's workers, or this process (null).
  arena::RemoteGames* RemoteArena() { return cluster_ ? cluster_->Arena() : nullptr; }
  util::Status StageTrain();
  util::Status StageGate();
  // The gate's games (not for promotion: always): fills the summary's gate fields.
  util::Status PlayGate(long long candidate, GenerationSummary& g);
  util::Status StageLadder(long long generation);
  // The rating of the run after a ladder round of `generation`: ratings.json, the table.
  util::Status RateAfterLadder(long long generation);
  // The iteration's last stage: its ladder round (when due), its summary, the next iteration.
  util::Status CloseIteration();
  util::Status Finish(const std::string& reason);
  // The generation's closing lines: time, best network, and where the compute went.
  void LogGenerationDone(const GenerationSummary& g);
  GenerationSummary& Current();

  const config::Config& c_;
  const config::PipelineConfig& p_;
  std::string run_;
  PipelineOptions options_;
  PipelineServices& services_;
  RunClock& clock_;
  PipelineState state_;
  double session_start_;
  double session_cpu_start_;
  double cpu_mark_;
  util::DirectoryLock lock_;
  std::unique_ptr<RemotePlay> cluster_;  // a cluster run (config section `cluster`)
};

}  // namespace veletas::pipeline::internal
