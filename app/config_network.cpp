#include "app/config_network.h"

#include <optional>

namespace veletas::app {

util::Result<model::LoadedEvaluator> LoadConfigNetwork(const std::string& ckpt,
                                                       const config::Config& c) {
  model::ModelRequirement need(model::ModelSpec{c.game.rules, c.game.size, c.model});
  need.source = c.source;
  return model::NetworkEvaluator::Open(ckpt, need, c.model);
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
