#include "app/config_network.h"

namespace veletas::app {

util::Result<model::LoadedEvaluator> LoadConfigNetwork(const std::string& ckpt,
                                                       const config::Config& c) {
  model::ModelRequirement need(model::ModelSpec{c.game.rules, c.game.size, c.model});
  need.source = c.source;
  return model::TorchEvaluator::Open(ckpt, need, c.model);
}

}  // namespace veletas::app
