// The pipeline's games from cluster workers (config section `cluster`, docs/CLUSTER.md): the
// seam app/pipeline.cpp calls instead of playing in its own process. Self-play of an
// iteration is collected from the workers' entries (and, with cluster.local_selfplay, also
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
#include "util/result.h"

namespace veletas::app {

class ClusterGames {
 public:
  using Log = std::function<void(const std::string&)>;
  // Connects to the Redis of `c.cluster`, takes the run's learner lock (the run's name:
  // cluster.run, else the run directory's name) and publishes the config.
  static util::Result<std::unique_ptr<ClusterGames>> Start(const Config& c,
                                                           const std::string& run_dir, Log log);

  struct SelfplayRequest {
    long long iteration = 0;
    std::string dir;  // the iteration's sample directory
    int64_t games = 0;
    // The self-play networks, newest (the best now) first: generation and checkpoint.
    std::vector<std::pair<long long, std::string>> bests;
    // The sample directories of the earlier iterations.
    std::vector<std::string> earlier_dirs;
    std::function<void(const std::string&)> progress;  // a status text, about every second
  };
  struct SelfplayResult {
    int64_t games = 0;  // in the iteration
    int64_t resumed = 0;
    int64_t samples = 0;  // of the games collected now
    std::string line;     // the summary after "gen N self-play: "
  };
  util::Result<SelfplayResult> Selfplay(const SelfplayRequest& request);

  // Where gate and ladder games are played.
  arena::RemoteGames* Arena() { return &learner_->Arena(); }
  // Makes generation `generation` (checkpoint) the network the workers' self-play uses.
  util::Status NewBest(long long generation, const std::string& checkpoint);
  // What the learner does now, for `veletas cluster status`.
  void Stage(const std::string& text) { learner_->SetStatus(text); }

 private:
  ClusterGames(const Config& c, Log log) : c_(c), log_(std::move(log)) {}

  const Config& c_;
  Log log_;
  std::unique_ptr<cluster::Learner> learner_;
};

}  // namespace veletas::app
