#include "app/arena_models.h"

#include "model/checkpoint_file.h"
#include "model/torch_evaluator.h"
#include "rules/notation.h"

namespace veletas::app {

ArenaModels::ArenaModels(rules::RuleSet rules, int size, const model::NetConfig& runtime,
                         const search::BatchingConfig& batching)
    : rules_(rules), size_(size), runtime_(runtime), batching_(batching) {
  batching_.max_wait_us = 0;
}

ArenaModels::~ArenaModels() = default;

util::Result<ArenaModel*> ArenaModels::Get(const std::string& checkpoint) {
  using R = util::Result<ArenaModel*>;
  if (auto it = models_.find(checkpoint); it != models_.end()) return it->second.get();
  auto meta = model::ReadCheckpointMeta(checkpoint);
  if (!meta) return meta.error_value();
  if (meta.value().rules != rules_ || meta.value().size != size_) {
    return R::Error(checkpoint + ": the network is for " + rules::RuleSetName(meta.value().rules) +
                    " " + std::to_string(meta.value().size) + "x" +
                    std::to_string(meta.value().size) + ", but the match is " +
                    rules::RuleSetName(rules_) + " " + std::to_string(size_) + "x" +
                    std::to_string(size_));
  }
  model::ModelSpec spec;
  spec.rules = rules_;
  spec.size = size_;
  spec.arch = meta.value().arch;
  auto evaluator = model::TorchEvaluator::Load(checkpoint, spec, runtime_);
  if (!evaluator) return evaluator.error_value();
  auto m = std::make_unique<ArenaModel>();
  m->generation = meta.value().generation;
  m->network = std::move(evaluator.value());
  m->batching = std::make_unique<search::BatchingEvaluator>(*m->network, batching_);
  ArenaModel* out = m.get();
  models_.emplace(checkpoint, std::move(m));
  return out;
}

}  // namespace veletas::app
