#include "app/load_evaluator.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "model/checkpoint_file.h"
#include "model/model_files.h"
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
  const std::string tmp = (std::filesystem::temp_directory_path() /
                           ("veletas_" + command + "_" + std::to_string(::getpid()) + ".ckpt"))
                              .string();
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  if (auto s = model::CreateInitialCheckpoint(tmp, spec, 1); !s) {
    std::cerr << "veletas " << command << ": " << s.error() << "\n";
    code = 1;
    return nullptr;
  }
  auto evaluator = LoadEvaluator(command, tmp, c, code);
  std::error_code ignored;
  std::filesystem::remove(tmp, ignored);
  if (!evaluator) code = 1;
  return evaluator;
}

std::string GameName(const Config& c) {
  return std::string(rules::RuleSetName(c.game.rules)) + " " + std::to_string(c.game.size) + "x" +
         std::to_string(c.game.size);
}

}  // namespace veletas::app
