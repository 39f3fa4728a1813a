// A pool of networks for arena play (match, gate, ladder, the pipeline's arena rounds): each
// checkpoint, at each inference precision, loaded once into a model::NetworkEvaluator behind a
// search::BatchingEvaluator, shared by every player and game that uses it. Torch-free header.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "model/base/net_config.h"
#include "model/network_evaluator.h"
#include "rules/position.h"
#include "search/batching_evaluator.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "util/result.h"

namespace veletas::model {

// One loaded network of a NetworkPool.
struct PooledNetwork {
  long long generation = 0;  // from the checkpoint's metadata
  std::unique_ptr<search::Evaluator> network;
  std::unique_ptr<search::BatchingEvaluator> batching;  // in front of `network`
  // The evaluator the players share (the batching one).
  search::Evaluator& Evaluator() { return *batching; }
};

// The network of `checkpoint` for a match of `rules` on `size` (its own architecture), on the
// device and threads of `runtime`, at inference precision `precision` ("" = the runtime's):
// NetworkEvaluator::Open with that requirement. Errors name the file (missing, corrupt, or made
// for other rules or another board size) or the unknown precision.
util::Result<LoadedEvaluator> OpenMatchNetwork(rules::RuleSet rules, int size,
                                               const NetConfig& runtime,
                                               const std::string& checkpoint,
                                               const std::string& precision);

// Loaded networks by checkpoint path and inference precision. Not thread-safe (the pooled
// evaluators themselves are as thread-safe as search::BatchingEvaluator).
class NetworkPool {
 public:
  // The game every checkpoint must be made for (`rules`, `size`). `runtime`: device and
  // threads of the network (the config's `model` section; the architecture is read from each
  // checkpoint). `batching`: the `evaluator` section; max_wait_us is set to 0 since the arena
  // hands over whole batches from one thread.
  NetworkPool(rules::RuleSet rules, int size, const NetConfig& runtime,
              const search::BatchingConfig& batching);
  ~NetworkPool();
  // The network of `checkpoint` at inference precision `precision` ("" = the runtime's
  // inference_precision), loaded on first use; the same pointer for the same (checkpoint,
  // precision) for the pool's lifetime. Errors name the file (missing, corrupt, or made for
  // other rules or another board size) or the unknown precision.
  util::Result<PooledNetwork*> Get(const std::string& checkpoint,
                                   const std::string& precision = "");

 private:
  rules::RuleSet rules_;
  int size_;
  NetConfig runtime_;
  search::BatchingConfig batching_;
  std::map<std::string, std::unique_ptr<PooledNetwork>> networks_;
};

}  // namespace veletas::model
