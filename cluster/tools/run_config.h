// A run's config (config/config.h) as the cluster's processes take it: the settings a worker
// plays with, a worker's overrides of them, and where a worker keeps its files.
#pragma once

#include <string>

#include "cluster/tools/cluster_bench.h"
#include "cluster/worker/worker.h"
#include "config/config.h"
#include "util/result.h"

namespace veletas::cluster {

// A worker's overrides of the run's published config.
struct WorkerOverrides {
  int threads = 0;          // self-play and arena threads; 0: the run's
  int games_in_flight = 0;  // per thread; 0: the run's
  model::Device device = model::Device::kAuto;
};

// The settings a worker takes from a run's config `c` (max_queued_games resolved: the
// config's, else two generations of games).
RunSettings RunSettingsOf(const config::Config& c);

// The run's published config `config_text` (named `source` in errors) with `overrides`
// applied, into `config` (for loading networks), and RunSettingsOf it.
util::Result<RunSettings> ReadRunConfig(const std::string& config_text, const std::string& source,
                                        const WorkerOverrides& overrides, config::Config& config);

// The worker comparison of `veletas bench cluster` for config `c`: files as a generation of
// the pipeline writes them (ten generations' worth of games, so that the window ends
// first), the run's config with a Redis URL and no limit on queued games when it has no
// cluster section; the caller sets the evaluator, the network and the loader.
WorkerBench WorkerBenchOf(const config::Config& c, const RedisOptions& redis,
                          const std::string& work, double seconds);

// $XDG_STATE_HOME/veletas/worker-<run> (~/.local/state when unset), else
// ./veletas-worker-<run>: where `veletas worker` keeps its id and spool by default.
std::string DefaultWorkerDir(const std::string& run);

}  // namespace veletas::cluster
