#include "tests/pipeline/pipeline_fakes.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "search/fake_evaluators.h"
#include "search/rollout_evaluator.h"
#include "util/atomic_file.h"
#include "util/random.h"

namespace veletas::pipeline::testing {
namespace {

namespace fs = std::filesystem;

// Uniform priors and the value of a random playout seeded by the position (so the same
// position always gets the same value, whatever the order of the calls), negated for "weak":
// a weak network steers towards losing.
std::unique_ptr<search::Evaluator> PlayoutEvaluator(uint64_t seed, float sign) {
  return std::make_unique<search::FunctionEvaluator>(
      [seed, sign](const rules::Position& pos, search::EvalOutput& out) {
        search::FillUniformPolicy(pos, out);
        util::Rng rng(pos.Hash() ^ seed);
        out.value = sign * search::RandomPlayoutValue(pos, rng);
      });
}

class FakeArenaNetworks final : public ArenaNetworks {
 public:
  util::Result<search::Evaluator*> Get(const std::string& checkpoint) override {
    auto it = loaded_.find(checkpoint);
    if (it == loaded_.end()) {
      auto opened = FakeNetworks::Open(checkpoint);
      if (!opened) return opened.error_value();
      it = loaded_.emplace(checkpoint, std::move(opened.value())).first;
    }
    return it->second.get();
  }

 private:
  std::map<std::string, std::unique_ptr<search::Evaluator>> loaded_;
};

}  // namespace

util::Result<std::unique_ptr<search::Evaluator>> FakeNetworks::Open(const std::string& checkpoint) {
  auto text = util::ReadFile(checkpoint);
  if (!text) return text.error_value();
  std::istringstream in(text.value());
  std::string magic, style;
  int64_t generation = -1;
  in >> magic >> generation >> style;
  if (magic != "fake-network") return util::Error{checkpoint + ": not a fake network"};
  const uint64_t seed = 7919 * static_cast<uint64_t>(generation + 1);
  if (style == "strong")
    return std::unique_ptr<search::Evaluator>(new search::RolloutEvaluator(seed));
  if (style == "weak") return PlayoutEvaluator(seed, -1.0f);
  if (style == "uniform") return std::unique_ptr<search::Evaluator>(new search::UniformEvaluator());
  return util::Error{checkpoint + ": unknown style \"" + style + "\""};
}

util::Status FakeNetworks::CreateInitial(const std::string& checkpoint, int64_t seed) {
  return util::WriteFileAtomic(
      checkpoint, "fake-network 0 " + initial_style + " seed " + std::to_string(seed) + "\n");
}

util::Result<std::unique_ptr<search::Evaluator>> FakeNetworks::LoadForSelfplay(
    const std::string& checkpoint) {
  return Open(checkpoint);
}

std::unique_ptr<ArenaNetworks> FakeNetworks::ForArena() {
  return std::make_unique<FakeArenaNetworks>();
}

util::Result<TrainSummary> FakeNetworks::Train(const TrainJob& job) {
  if (fail_training) return util::Error{"fake disk full", util::ErrorKind::kFailure};
  if (!fs::exists(job.input_checkpoint)) {
    return util::Error{job.input_checkpoint + ": no such checkpoint"};
  }
  for (const std::string& dir : job.data) {
    if (!fs::is_directory(dir)) return util::Error{dir + ": no such sample directory"};
  }
  trained.push_back(job);
  const auto style = styles.find(job.generation);
  const std::string text = "fake-network " + std::to_string(job.generation) + " " +
                           (style == styles.end() ? "uniform" : style->second) + " from " +
                           fs::path(job.input_checkpoint).filename().string() + "\n";
  if (util::Status s = util::WriteFileAtomic(job.output_checkpoint, text); !s.ok())
    return s.error_value();
  clock_.wall += train_wall_seconds;
  clock_.cpu += train_cpu_seconds;
  if (job.progress) job.progress(TrainProgress{10, 10, 1.5, 1.0, 0.4, 0.1, 320, 0});
  TrainSummary s;
  s.steps = 10;
  s.global_steps = 10 * job.generation;
  s.total_samples = 100 * static_cast<int64_t>(job.data.size());
  s.window_samples = s.total_samples;
  s.loss_total = 1.5;
  s.loss_policy = 1.0;
  s.loss_value = 0.4;
  s.loss_aux = 0.1;
  s.loop_samples_per_second = 320;
  s.seconds = train_wall_seconds;
  return s;
}

bool FakeReporter::Has(const std::string& text) const {
  for (const std::string& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

FakeSession::FakeSession(FakeClock& clock, std::map<int64_t, std::string> styles)
    : networks(clock), services{networks, reporter, clock, {}, {}} {
  networks.styles = std::move(styles);
  services.rate_run = [](const std::string& run_dir) -> util::Result<RatingsReport> {
    RatingsReport r;
    size_t matches = 0;
    for (const auto& e : fs::directory_iterator(fs::path(run_dir) / "matches")) {
      if (e.path().extension() == ".json") ++matches;
    }
    r.table = {"player Elo", std::to_string(matches) + " matches"};
    r.chart_note = "no chart in tests";
    return r;
  };
}

config::Config TestConfig(const std::string& pipeline_yaml, const std::string& selfplay_yaml) {
  const std::string yaml = R"(game:
  rules: standard
  size: 7
search:
  algorithm: gumbel
  simulations: 8
  gumbel_considered: 4
evaluator:
  max_batch: 16
  max_wait_us: 0
  cache_size: 0
arena:
  simulations: 8
  games_in_parallel: 4
  threads: 1
  gate:
    method: fixed_games
    games: 4
    threshold: 0.5
    batch_games: 4
  ladder:
    uct_anchors: [8]
    anchor_games: 2
    games_vs_anchors: 2
    previous_generations: 1
    games_vs_previous: 2
selfplay:
  threads: 1
  games_in_flight: 4
  full_simulations: 8
  cheap_simulations: 4
  games_per_file: 4
)" + selfplay_yaml + "pipeline:\n" +
                           pipeline_yaml;
  auto c = config::LoadConfigFromString(yaml, "test.yaml");
  if (!c) throw std::runtime_error(c.error());
  return c.value();
}

}  // namespace veletas::pipeline::testing
