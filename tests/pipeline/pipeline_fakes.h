// Fakes of the pipeline's seams for its tests: networks whose checkpoints are small text
// files naming how their evaluator plays, a trainer that writes such a file and advances a
// fake clock, a reporter that keeps the lines, and ratings that count the match records.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "pipeline/networks.h"
#include "pipeline/pipeline.h"
#include "pipeline/reporter.h"
#include "pipeline/run_clock.h"

namespace veletas::pipeline::testing {

// Time that moves only when a fake says so.
class FakeClock final : public RunClock {
 public:
  double WallSeconds() override { return wall; }
  double CpuSeconds() override { return cpu; }
  double wall = 1000;
  double cpu = 50;
};

// How a fake network plays: "uniform" (uniform priors, value 0), "strong" (value = a random
// playout seeded by the position) or "weak" (minus that: it seeks to lose). Every evaluator
// is a function of the position, so a run's games do not depend on the order of the calls.
class FakeNetworks final : public Networks {
 public:
  explicit FakeNetworks(FakeClock& clock) : clock_(clock) {}
  util::Status CreateInitial(const std::string& checkpoint, int64_t seed) override;
  util::Result<std::unique_ptr<search::Evaluator>> LoadForSelfplay(
      const std::string& checkpoint) override;
  std::unique_ptr<ArenaNetworks> ForArena() override;
  util::Result<TrainSummary> Train(const TrainJob& job) override;

  // The style of each trained generation ("uniform" where not given).
  std::map<int64_t, std::string> styles;
  std::string initial_style = "uniform";
  // What one training costs on the fake clock.
  double train_wall_seconds = 60;
  double train_cpu_seconds = 120;
  // Train fails (a failure, as a full disk would) while this is set.
  bool fail_training = false;
  // Training calls made (in this object) and the data each got.
  std::vector<TrainJob> trained;
  // The evaluator a checkpoint file asks for; errors name the file.
  static util::Result<std::unique_ptr<search::Evaluator>> Open(const std::string& checkpoint);

 private:
  FakeClock& clock_;
};

class FakeReporter final : public Reporter {
 public:
  void Progress(const std::string& text) override { progress.push_back(text); }
  void Line(const std::string& line) override { lines.push_back(line); }
  double ProgressSeconds() const override { return 1e9; }
  // Whether a line contains `text`.
  bool Has(const std::string& text) const;
  std::vector<std::string> lines;
  std::vector<std::string> progress;
};

// A run directory's pipeline with fakes: one object per session (as one process).
struct FakeSession {
  FakeSession(FakeClock& clock, std::map<int64_t, std::string> styles = {});
  FakeNetworks networks;
  FakeReporter reporter;
  PipelineServices services;
};

// The test's config: 7x7, a few games with 8 simulations, one thread; `pipeline_yaml` is
// the body of the `pipeline` section, `selfplay_yaml` more keys of the `selfplay` section
// (each line indented by two spaces). Throws on a bad config.
config::Config TestConfig(const std::string& pipeline_yaml, const std::string& selfplay_yaml = "");

}  // namespace veletas::pipeline::testing
