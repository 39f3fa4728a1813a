// The whole of `veletas bench cluster` for a run's config (docs/CLUSTER.md): the ingest
// measurement and, unless skipped, the worker comparison of cluster_bench.h, in a scratch
// directory, with the figures printed. Torch-free: the app hands in how networks are made
// and loaded (pipeline::Networks, a cluster::RunLoader).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "cluster/transport/redis_client.h"
#include "cluster/worker/worker.h"
#include "config/config.h"
#include "pipeline/networks.h"
#include "util/result.h"

namespace veletas::cluster {

// What the bench measures, where, and with which networks.
struct ClusterBenchRun {
  RedisOptions redis;  // the server measured; the bench makes runs of its own there
  // Scratch directory, emptied first and removed at the end; unset: a temporary one.
  std::optional<std::string> work;
  int games = 1000;     // recorded for the ingest measurement
  double seconds = 60;  // of each self-play measurement of the worker comparison; 0 skips it
  // The checkpoint the worker comparison plays; unset: a fresh network (seed 1) written into
  // `work`.
  std::optional<std::string> model;
  // Creates the fresh network and loads the local side's, as the config runs it.
  pipeline::Networks* networks = nullptr;
  // The worker's loader for run `run` (a name the bench chooses).
  std::function<std::unique_ptr<RunLoader>(const std::string& run)> make_loader;
};

// Measures the learner's ingest (MeasureIngest) for config `c`, prints the game, the config's
// source and the ingest figures to `out`; then, when run.seconds > 0, self-play in this
// process against one worker (MeasureWorker) on run.model's network and prints that
// comparison (PrintWorkerFigures). Progress lines go to `log`. The scratch directory is
// removed unless an error stopped the bench. Errors: what failed (as the measurements
// say; the checkpoint unreadable: "publishing to redis: ...").
util::Status RunClusterBench(const config::Config& c, const ClusterBenchRun& run, std::ostream& out,
                             std::ostream& log);

}  // namespace veletas::cluster
