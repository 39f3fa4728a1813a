#include "app/pipeline_services.h"

#include <iostream>
#include <utility>

#include "app/config_network.h"
#include "cluster/learner/pipeline_games.h"
#include "model/network_pool.h"
#include "model/torch/model_files.h"
#include "pipeline/run_report.h"
#include "training/train_text.h"

namespace veletas::app {
namespace {

// The arena networks of a gate or ladder round: model::NetworkPool.
class TorchArenaNetworks final : public pipeline::ArenaNetworks {
 public:
  explicit TorchArenaNetworks(const config::Config& c)
      : models_(c.game.rules, c.game.size, c.model, c.evaluator) {}
  util::Result<search::Evaluator*> Get(const std::string& checkpoint) override {
    auto m = models_.Get(checkpoint);
    if (!m) return m.error_value();
    return &m.value()->Evaluator();
  }

 private:
  model::NetworkPool models_;
};

}  // namespace

util::Status TorchNetworks::CreateInitial(const std::string& checkpoint, int64_t seed) {
  const model::ModelSpec spec{c_.game.rules, c_.game.size, c_.model};
  auto status = model::CreateInitialCheckpoint(checkpoint, spec, static_cast<uint64_t>(seed));
  if (!status) return util::Error{status.error(), util::ErrorKind::kFailure};
  return util::Ok();
}

util::Result<std::unique_ptr<search::Evaluator>> TorchNetworks::LoadForSelfplay(
    const std::string& checkpoint) {
  auto loaded = LoadConfigNetwork(checkpoint, c_);
  if (!loaded) return loaded.error_value();
  return std::unique_ptr<search::Evaluator>(std::move(loaded.value().evaluator));
}

std::unique_ptr<pipeline::ArenaNetworks> TorchNetworks::ForArena() {
  return std::make_unique<TorchArenaNetworks>(c_);
}

util::Result<pipeline::TrainSummary> TorchNetworks::Train(const pipeline::TrainJob& job) {
  training::TrainRequest req = training::MakeTrainRequest(
      c_.training, model::ModelSpec{c_.game.rules, c_.game.size, c_.model}, c_.model.device,
      job.input_checkpoint, job.data, job.output_checkpoint);
  req.generation = job.generation;
  req.metrics_path = job.metrics_path;
  // The input is this run's previous generation (RUN_DIR/models): its optimiser state goes on.
  req.restore_input_optimizer = true;
  if (job.progress) {
    req.progress = [&job](const training::TrainProgress& t) {
      job.progress({t.step, t.steps, t.loss_total, t.loss_policy, t.loss_value, t.loss_aux,
                    t.samples_per_second, t.eta_seconds});
    };
  }
  req.log = job.log;
  const training::TrainResult result = training::TrainGeneration(req);
  if (!result.ok()) return result.ToStatus().error_value();
  const training::TrainStats& t = result.stats;
  pipeline::TrainSummary s;
  s.steps = t.steps;
  s.global_steps = t.global_steps;
  s.total_samples = t.total_samples;
  s.window_samples = t.window_samples;
  s.loss_total = t.loss_total;
  s.loss_policy = t.loss_policy;
  s.loss_value = t.loss_value;
  s.loss_aux = t.loss_aux;
  s.loop_samples_per_second = t.loop_samples_per_second;
  s.seconds = t.seconds;
  s.skipped = t.skipped;
  return s;
}

void ConsoleReporter::Line(const std::string& line) {
  status_.Clear();
  std::cout << line << std::endl;
}

void ConsoleReporter::Error(const std::string& message) {
  status_.Clear();
  std::cerr << message << "\n";
}

PipelineServicesOfApp::PipelineServicesOfApp(const config::Config& config,
                                             pipeline::Reporter& reporter,
                                             const std::string& run_dir)
    : networks(config), services{networks, reporter, clock, {}, pipeline::RateForPipeline} {
  services.start_cluster = [this, &config,
                            run_dir](const std::function<void(const std::string&)>& log)
      -> util::Result<std::unique_ptr<pipeline::RemotePlay>> {
    auto load = [this](const std::string& checkpoint) {
      return networks.LoadForSelfplay(checkpoint);
    };
    // A game whose worker's precision this machine lacks is left unchecked (counted).
    auto check = [&config](const std::string& checkpoint,
                           std::optional<model::InferencePrecision> precision)
        -> util::Result<std::unique_ptr<search::Evaluator>> {
      auto loaded = LoadSpotCheckNetwork(checkpoint, config, precision);
      if (!loaded) return loaded.error_value();
      return std::unique_ptr<search::Evaluator>(std::move(loaded.value()));
    };
    auto games = cluster::PipelineGames::Start(config, run_dir, log, load, check);
    if (!games) return games.error_value();
    return std::unique_ptr<pipeline::RemotePlay>(std::move(games.value()));
  };
}

}  // namespace veletas::app
