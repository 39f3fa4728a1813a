#include "model/network_pool.h"

#include <fmt/format.h>

#include <optional>

#include "model/network_evaluator.h"
#include "rules/notation.h"

namespace veletas::model {

NetworkPool::NetworkPool(rules::RuleSet rules, int size, const NetConfig& runtime,
                         const search::BatchingConfig& batching)
    : rules_(rules), size_(size), runtime_(runtime), batching_(batching) {
  batching_.max_wait_us = 0;
}

NetworkPool::~NetworkPool() = default;

util::Result<LoadedEvaluator> OpenMatchNetwork(rules::RuleSet rules, int size,
                                               const NetConfig& runtime,
                                               const std::string& checkpoint,
                                               const std::string& precision) {
  NetConfig chosen = runtime;
  if (!precision.empty()) {
    const std::optional<InferencePrecision> named = ParseInferencePrecision(precision);
    if (!named) {
      return util::Error{fmt::format("unknown inference precision \"{}\" for {} (expected {})",
                                     precision, checkpoint, fmt::join(kInferencePrecisions, ", "))};
    }
    chosen.inference_precision = *named;
  }
  // The match's game; the architecture is the checkpoint's own.
  ModelRequirement need;
  need.rules = rules;
  need.size = size;
  need.source = "the match (" + rules::GameName(rules, size) + ")";
  return NetworkEvaluator::Open(checkpoint, need, chosen);
}

util::Result<PooledNetwork*> NetworkPool::Get(const std::string& checkpoint,
                                              const std::string& precision) {
  const std::string key = checkpoint + "\n" + precision;
  if (auto it = networks_.find(key); it != networks_.end()) return it->second.get();
  auto opened = OpenMatchNetwork(rules_, size_, runtime_, checkpoint, precision);
  if (!opened) return opened.error_value();
  auto m = std::make_unique<PooledNetwork>();
  m->generation = opened.value().meta.generation;
  m->network = std::move(opened.value().evaluator);
  m->batching = std::make_unique<search::BatchingEvaluator>(*m->network, batching_);
  PooledNetwork* out = m.get();
  networks_.emplace(key, std::move(m));
  return out;
}

}  // namespace veletas::model
