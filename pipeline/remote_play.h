// The pipeline's games from cluster workers (config section `cluster`, docs/CLUSTER.md),
// called instead of playing in its own process: self-play of an iteration is collected from
// the workers (and, with cluster.local_selfplay, also played locally); gate and ladder games
// are played by the workers (arena::RemoteGames); every new best network is published for the
// workers at once. cluster::PipelineGames (cluster/learner/pipeline_games.h) implements it over
// Redis.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "arena/arena_journal.h"
#include "util/result.h"

namespace veletas::pipeline {

class RemotePlay {
 public:
  virtual ~RemotePlay() = default;

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
  // Collects the iteration's self-play games into request.dir.
  virtual util::Result<SelfplayResult> Selfplay(const SelfplayRequest& request) = 0;
  // Where gate and ladder games are played.
  virtual arena::RemoteGames* Arena() = 0;
  // Makes generation `generation` (checkpoint) the network the workers' self-play uses.
  virtual util::Status NewBest(long long generation, const std::string& checkpoint) = 0;
  // What the learner does now, for `veletas cluster status`.
  virtual void Stage(const std::string& text) = 0;
};

}  // namespace veletas::pipeline
