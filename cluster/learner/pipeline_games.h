// The pipeline's games from cluster workers (config section `cluster`, docs/CLUSTER.md): the
// pipeline::RemotePlay (pipeline/remote_play.h) of a run with a cluster, over Redis. Self-play of
// an iteration is collected from the workers' entries (and, with cluster.local_selfplay, also
// played here); gate and ladder games are played by the workers (RemoteGames); every new
// best network is published for the workers at once. Torch-free: the network of local
// self-play is loaded by the caller's function.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arena/arena_journal.h"
#include "cluster/learner/learner.h"
#include "config/config.h"
#include "pipeline/remote_play.h"
#include "search/evaluator.h"
#include "util/result.h"

namespace veletas::cluster {

class PipelineGames final : public pipeline::RemotePlay {
 public:
  using Log = std::function<void(const std::string&)>;
  // The network of checkpoint `checkpoint` for self-play in this process.
  using LoadNetwork = std::function<util::Result<std::unique_ptr<search::Evaluator>>(
      const std::string& checkpoint)>;
  // The network of checkpoint `checkpoint` at inference precision `precision` (nullopt: the
  // config's), for spot checks.
  using CheckNetwork = std::function<util::Result<std::unique_ptr<search::Evaluator>>(
      const std::string& checkpoint, std::optional<model::InferencePrecision> precision)>;
  // Connects to the Redis of `c.cluster`, takes the run's learner lock (the run's name:
  // cluster.run, else the run directory's name) and publishes the config. `c` must outlive
  // the result; `load` loads the network of local self-play (cluster.local_selfplay),
  // `check` the networks of the spot checks.
  static util::Result<std::unique_ptr<PipelineGames>> Start(const config::Config& c,
                                                            const std::string& run_dir, Log log,
                                                            LoadNetwork load, CheckNetwork check);

  util::Result<SelfplayResult> Selfplay(const SelfplayRequest& request) override;

  arena::RemoteGames* Arena() override { return &learner_->Arena(); }
  util::Status NewBest(long long generation, const std::string& checkpoint) override;
  void Stage(const std::string& text) override { learner_->SetStatus(text); }

 private:
  PipelineGames(const config::Config& c, Log log, LoadNetwork load)
      : c_(c), log_(std::move(log)), load_(std::move(load)) {}

  const config::Config& c_;
  Log log_;
  LoadNetwork load_;
  std::unique_ptr<Learner> learner_;
};

}  // namespace veletas::cluster
