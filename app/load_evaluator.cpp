#include "app/load_evaluator.h"

#include <iostream>

#include "model/checkpoint_file.h"
#include "rules/notation.h"

namespace veletas::app {

std::unique_ptr<model::TorchEvaluator> LoadEvaluator(const std::string& command,
                                                     const std::string& ckpt, const Config& c,
                                                     int& code, model::CheckpointMeta* meta_out) {
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  const auto meta = model::ReadCheckpointMeta(ckpt);
  if (!meta) {
    std::cerr << "veletas " << command << ": " << meta.error() << "\n";
    code = 2;
    return nullptr;
  }
  if (const std::string mismatch = model::DescribeMismatch(meta.value(), spec); !mismatch.empty()) {
    std::cerr << "veletas " << command << ": " << ckpt << " does not fit " << c.source << ": "
              << mismatch << "\n";
    code = 2;
    return nullptr;
  }
  auto evaluator = model::TorchEvaluator::Load(ckpt, spec, c.model);
  if (!evaluator) {
    std::cerr << "veletas " << command << ": " << evaluator.error() << "\n";
    code = 1;
    return nullptr;
  }
  if (meta_out != nullptr) *meta_out = meta.value();
  return std::move(evaluator.value());
}

std::unique_ptr<model::TorchEvaluator> FreshEvaluator(const std::string& command, const Config& c,
                                                      int& code) {
  auto evaluator = model::TorchEvaluator::Fresh(c.model, 1);
  if (!evaluator) {
    std::cerr << "veletas " << command << ": " << evaluator.error() << "\n";
    code = 1;
    return nullptr;
  }
  return std::move(evaluator.value());
}

std::string GameName(const Config& c) {
  return std::string(rules::RuleSetName(c.game.rules)) + " " + std::to_string(c.game.size) + "x" +
         std::to_string(c.game.size);
}

}  // namespace veletas::app
