// The app's side of the pipeline's seams (pipeline/pipeline.h): the networks on LibTorch
// (checkpoints, self-play and arena evaluators, training), the console (a status line on
// stderr, summary lines on stdout), the cluster over Redis (cluster::PipelineGames) and the
// run's ratings.
#pragma once

#include <memory>
#include <string>

#include "config/config.h"
#include "pipeline/networks.h"
#include "pipeline/pipeline.h"
#include "pipeline/reporter.h"
#include "util/progress_line.h"

namespace veletas::app {

// pipeline::Networks with the config's game, network architecture, device and training
// settings.
class TorchNetworks final : public pipeline::Networks {
 public:
  explicit TorchNetworks(const config::Config& config) : c_(config) {}
  util::Status CreateInitial(const std::string& checkpoint, int64_t seed) override;
  util::Result<std::unique_ptr<search::Evaluator>> LoadForSelfplay(
      const std::string& checkpoint) override;
  std::unique_ptr<pipeline::ArenaNetworks> ForArena() override;
  util::Result<pipeline::TrainSummary> Train(const pipeline::TrainJob& job) override;

 private:
  const config::Config& c_;
};

// Progress on a status line (stderr), lines on stdout.
class ConsoleReporter final : public pipeline::Reporter {
 public:
  void Progress(const std::string& text) override { status_.Update(text); }
  void Line(const std::string& line) override;
  double ProgressSeconds() const override { return status_.IntervalSeconds(); }
  // Prints "<prefix><message>" to stderr after ending the status line.
  void Error(const std::string& message);

 private:
  util::ProgressLine status_;
};

// The services of a `veletas pipeline` run of `config`: the networks above, `reporter`, the
// process's clocks, cluster::PipelineGames for a cluster run, RateRun for the ratings.
struct PipelineServicesOfApp {
  PipelineServicesOfApp(const config::Config& config, pipeline::Reporter& reporter,
                        const std::string& run_dir);
  TorchNetworks networks;
  pipeline::SystemClock clock;
  pipeline::PipelineServices services;
};

}  // namespace veletas::app
