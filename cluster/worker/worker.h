// A cluster worker (`veletas worker`): fetches its run's config and current network from
// Redis, plays self-play games with the existing engine (selfplay::RunSelfplay, batched across
// its games) and arena tasks with the existing arena (arena::Arena), and sends every finished
// game as one entry (cluster/transport/entry.h) through its spool (cluster/worker/outbox.h).
//
// - A new network is picked up between games, never mid-game: the games in flight finish
//   with the network they started with while new games start with the new one.
// - Arena tasks come first: self-play pauses (its games kept) while a task is played. The
//   worker holds the tasks it reads (XREADGROUP under its own name) and may not acknowledge
//   or claim any: the learner acknowledges a task once it has its games, and takes back a
//   task whose holder's heartbeat has not named it for cluster.task_timeout_seconds.
// - Self-play pauses while the learner's queue holds cluster.max_queued_games games.
// - Without a connection the worker keeps playing and spooling, and reconnects; a restarted
//   worker sends its spool first and resumes its own pending task.
// - A heartbeat key with a TTL (cluster/transport/keys.h Worker) says it is alive and what it does.
// Torch-free: the app supplies the networks through RunLoader.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "arena/arena_settings.h"
#include "cluster/transport/redis_client.h"
#include "config/cluster_settings.h"
#include "model/base/net_config.h"
#include "rules/position.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "util/result.h"

namespace veletas::cluster {

// What a worker needs of its run's config.
struct RunSettings {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  selfplay::SelfplayConfig selfplay;  // threads and games_in_flight: the worker's own
  search::SearchConfig search;
  search::BatchingConfig batching;
  arena::ArenaConfig arena;  // simulations, games_in_parallel, threads
  config::ClusterConfig cluster;
  int64_t max_queued_games = 1000;  // cluster.max_queued_games resolved
};

// The worker's access to networks and configs (the app's: Torch and the YAML reader).
class RunLoader {
 public:
  virtual ~RunLoader() = default;
  // The settings in the run's published config (YAML text), with the worker's own overrides
  // (threads, games in flight) applied. Bad input names what is wrong.
  virtual util::Result<RunSettings> Settings(const std::string& config_text) = 0;
  // An evaluator of the network in checkpoint file `path`, for the settings last returned.
  // Called from the worker's main thread; the evaluator is then called from one thread at a
  // time.
  virtual util::Result<std::unique_ptr<search::Evaluator>> Load(const std::string& path) = 0;
  // The inference precision of the network last loaded (model::NetworkEvaluator::
  // Precision), sent with its games so that the learner's spot checks evaluate the network
  // the same way; nullopt when unknown.
  virtual std::optional<model::InferencePrecision> LastPrecision() const { return std::nullopt; }
};

struct WorkerOptions {
  RedisOptions redis;
  std::string run;
  // The worker's directory: its id (worker_id), spool (outbox/) and networks (models/).
  // Locked while the worker runs.
  std::string dir;
  // The worker id; empty: the one in DIR/worker_id, else made up (host name and a random
  // suffix) and saved there.
  std::string id;
  // Messages worth a line (network switches, tasks, connection lost and back, errors).
  std::function<void(const std::string&)> log;
  // The worker returns when this turns true (e.g. SIGTERM); games in flight are abandoned,
  // spooled games stay for the next start.
  const std::atomic<bool>* stop = nullptr;
  // Seconds between two looks at Redis (network, tasks, queue).
  double poll_seconds = 0.5;
  // If set, kept at the positions self-play's searches have asked the network for (updated
  // every quarter second): a continuous measure of its speed for benchmarks.
  std::atomic<int64_t>* evaluations = nullptr;
};

struct WorkerReport {
  std::string id;
  int64_t selfplay_games = 0;        // finished and spooled
  int64_t selfplay_searches = 0;     // searches of self-play (finished games or not)
  int64_t selfplay_evaluations = 0;  // positions those searches asked for
  int64_t arena_games = 0;
  int64_t tasks = 0;  // acknowledged
};

// Runs the worker until *options.stop. Errors: the directory cannot be used or is locked by
// another worker (bad input), a network cannot be loaded or the loader failed (failure).
// Losing Redis is not an error: the worker waits for it.
util::Result<WorkerReport> RunWorker(const WorkerOptions& options, RunLoader& loader);

}  // namespace veletas::cluster
