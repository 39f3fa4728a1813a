// The pipeline's games from cluster workers (config section `cluster`, docs/CLUSTER.md): the
// pipeline::RemotePlay (pipeline/remote_play.h) of a run with a cluster, over Redis. Self-play of
// an iteration is collected from the workers' entries (and, with cluster.local_selfplay, also
// played here); gate and ladder games are played by the workers (RemoteGames); every new
// best network is published for the workers at once.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/config.h"
#include "arena/arena_journal.h"
#include "cluster/learner.h"
#include "pipeline/remote_play.h"
#include "util/result.h"

namespace veletas::app {

class ClusterGames final : public pipeline::RemotePlay {
 public:
  using Log = std::function<void(const std::string&)>;
  // Connects to the Redis of `c.cluster`, takes the run's learner lock (the run's name:
  // cluster.run, else the run directory's name) and publishes the config.
  static util::Result<std::unique_ptr<ClusterGames>> Start(const Config& c,
                                                           const std::string& run_dir, Log log);

  util::Result<SelfplayResult> Selfplay(const SelfplayRequest& request) override;

  arena::RemoteGames* Arena() override { return &learner_->Arena(); }
  util::Status NewBest(long long generation, const std::string& checkpoint) override;
  void Stage(const std::string& text) override { learner_->SetStatus(text); }

 private:
  ClusterGames(const Config& c, Log log) : c_(c), log_(std::move(log)) {}

  const Config& c_;
  Log log_;
  std::unique_ptr<cluster::Learner> learner_;
};

}  // namespace veletas::app
