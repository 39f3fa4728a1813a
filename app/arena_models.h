// Networks for arena play in the app: a checkpoint loaded into a model::TorchEvaluator
// behind a search::BatchingEvaluator, shared by every player and game that uses the same
// checkpoint. Torch-free header.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "model/net_config.h"
#include "rules/position.h"
#include "search/batching_evaluator.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "util/result.h"

namespace veletas::app {

struct ArenaModel {
  long long generation = 0;  // from the checkpoint's metadata
  std::unique_ptr<search::Evaluator> network;
  std::unique_ptr<search::BatchingEvaluator> batching;  // in front of `network`
  search::Evaluator& Evaluator() { return *batching; }
};

// Loaded models by checkpoint path and inference precision. Not thread-safe.
class ArenaModels {
 public:
  // `runtime`: device and threads of the network (the config's `model` section; the
  // architecture is read from each checkpoint). `batching`: the `evaluator` section;
  // max_wait_us is set to 0 since the arena hands over whole batches from one thread.
  ArenaModels(rules::RuleSet rules, int size, const model::NetConfig& runtime,
              const search::BatchingConfig& batching);
  ~ArenaModels();
  // The model of `checkpoint` at inference precision `precision` ("" = the runtime's
  // model.inference_precision), loaded on first use. Errors name the file (missing,
  // corrupt, or made for other rules or another board size) or the unknown precision.
  util::Result<ArenaModel*> Get(const std::string& checkpoint, const std::string& precision = "");

 private:
  rules::RuleSet rules_;
  int size_;
  model::NetConfig runtime_;
  search::BatchingConfig batching_;
  std::map<std::string, std::unique_ptr<ArenaModel>> models_;
};

}  // namespace veletas::app
