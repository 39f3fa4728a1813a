#include "app/config_network.h"

#include <optional>

namespace veletas::app {

util::Result<model::LoadedEvaluator> LoadConfigNetwork(const std::string& ckpt,
                                                       const config::Config& c) {
  model::ModelRequirement need(model::ModelSpec{c.game.rules, c.game.size, c.model});
  need.source = c.source;
  return model::NetworkEvaluator::Open(ckpt, need, c.model);
}

arena::NetworkSource PoolNetworks(model::NetworkPool& models) {
  return [&models](const std::string& ckpt,
                   const std::string& precision) -> util::Result<arena::PlayerNetwork> {
    auto m = models.Get(ckpt, precision);
    if (!m) return m.error_value();
    return arena::PlayerNetwork{m.value()->generation, &m.value()->Evaluator()};
  };
}

util::Result<cli::PlayNetwork> OpenPlayNetwork(const std::string& ckpt,
                                               const model::ModelRequirement& need,
                                               const model::NetConfig& runtime) {
  auto opened = model::NetworkEvaluator::Open(ckpt, need, runtime);
  if (!opened) return opened.error_value();
  model::NetworkEvaluator* network = opened.value().evaluator.get();
  return cli::PlayNetwork{opened.value().meta, std::move(opened.value().evaluator),
                          [network](int threads) { network->SetThreads(threads); }};
}

util::Result<std::unique_ptr<model::NetworkEvaluator>> LoadSpotCheckNetwork(
    const std::string& ckpt, const config::Config& c,
    std::optional<model::InferencePrecision> precision) {
  config::Config checked = c;
  checked.model.device = model::Device::kCpu;  // as the workers run it, also on a GPU learner
  const bool named = precision && *precision != model::InferencePrecision::kAuto;
  if (named) checked.model.inference_precision = *precision;
  auto loaded = LoadConfigNetwork(ckpt, checked);
  if (!loaded) return loaded.error_value();
  if (named && loaded.value().evaluator->Precision() != *precision) {
    return std::unique_ptr<model::NetworkEvaluator>();
  }
  return std::move(loaded.value().evaluator);
}

}  // namespace veletas::app
