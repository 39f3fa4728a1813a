#include "app/config_network.h"

#include <algorithm>

namespace veletas::app {

util::Result<model::LoadedEvaluator> LoadConfigNetwork(const std::string& ckpt,
                                                       const config::Config& c) {
  model::ModelRequirement need(model::ModelSpec{c.game.rules, c.game.size, c.model});
  need.source = c.source;
  return model::NetworkEvaluator::Open(ckpt, need, c.model);
}

util::Result<std::unique_ptr<model::NetworkEvaluator>> LoadSpotCheckNetwork(
    const std::string& ckpt, const config::Config& c, const std::string& precision) {
  config::Config checked = c;
  checked.model.device = "cpu";  // as the workers run it, also on a GPU learner
  const auto& known = model::kInferencePrecisions;
  const bool named =
      precision != "auto" && std::find(known.begin(), known.end(), precision) != known.end();
  if (named) checked.model.inference_precision = precision;
  auto loaded = LoadConfigNetwork(ckpt, checked);
  if (!loaded) return loaded.error_value();
  if (named && loaded.value().evaluator->PrecisionName() != precision) {
    return std::unique_ptr<model::NetworkEvaluator>();
  }
  return std::move(loaded.value().evaluator);
}

}  // namespace veletas::app
