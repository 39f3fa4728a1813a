// The learner's cluster session (used by `veletas pipeline` with a `cluster` section): holds
// the run's learner lock in Redis, publishes the run's config and its networks, collects
// each iteration's self-play games from the workers (and, optionally, from self-play in this
// process), and plays arena matches on the workers (cluster/learner/remote_arena.h).
//
// Self-play collection: entries of the self-play stream are checked (cluster/transport/entry.h,
// cluster/learner/validate.h), stored in the iteration's sample directory
// (cluster/learner/game_store.h: durable before the entry is acknowledged, each game id once in the
// run, also across restarts), and acknowledged; entries that find the iteration full stay pending
// for the next one; so do the games of a worker beyond its share of the generation
// (config::ClusterConfig::max_worker_share, cluster/learner/worker_share.h). Games of a network
// that is no longer accepted are dropped as stale; entries that are invalid are rejected, counted
// and logged with the sender's worker id. A share of each worker's positions is spot-checked
// (cluster/learner/spot_checker.h); a worker that fails a check is quarantined.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "arena/arena_journal.h"
#include "cluster/learner/game_store.h"
#include "cluster/learner/ingest_session.h"
#include "cluster/learner/redis_guard.h"
#include "cluster/learner/spot_checker.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "config/cluster_settings.h"
#include "data/sample_dir_writer.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_game.h"
#include "util/result.h"

namespace veletas::cluster {

class RemoteArena;

// In the run directory: the games stored since each worker's last passed spot check, kept
// across learner restarts (SpotCheckerOptions::unverified_file).
inline constexpr std::string_view kUnverifiedGamesFile = "spot_check_unverified.tsv";

struct LearnerOptions {
  RedisOptions redis;
  std::string run;  // the run's name in Redis
  config::ClusterConfig cluster;
  std::string config_text;  // published for the workers (the learner's effective config)
  std::string run_dir;      // identifies this learner's run in the lock; holds kUnverifiedGamesFile
  std::function<void(const std::string&)> log;
  // The bytes to publish for the network of a checkpoint file (e.g. without optimiser state).
  std::function<util::Result<std::string>(const std::string& checkpoint)> network_bytes;
  // For spot checks (config::ClusterConfig::spot_check_fraction): the evaluator of a checkpoint
  // file with the run's inference settings, and the search settings the workers use. Empty: no
  // spot checks.
  CheckpointLoader load_network;
  search::SearchConfig search;
  selfplay::SelfplayConfig selfplay;  // the workers' (resignation, simulations)
};

// Progress of a collection, about every second.
struct CollectProgress {
  int64_t games = 0;  // in the iteration
  int64_t target = 0;
  int64_t local_games = 0;
  IngestCounters counters;  // of this collection
  int workers = 0;          // workers whose games were stored in this collection
  double seconds = 0;
};

struct CollectRequest {
  data::SampleDirOptions dir;      // the iteration's directory and games
  std::set<std::string> accepted;  // networks whose games are used
  std::set<std::string> known;     // every network published (others: unknown)
  // Optional self-play in this process: called on a thread of its own; hands each finished
  // game to `sink` and returns when `stop` turns true (or on its error).
  std::function<util::Status(const std::function<util::Status(selfplay::FinishedGame&&)>& sink,
                             const std::atomic<bool>& stop)>
      local;
  std::function<void(const CollectProgress&)> progress;
};

struct CollectReport {
  CollectProgress totals;  // at the end
  int64_t resumed = 0;     // games the iteration held when the collection started
  int64_t samples = 0;     // of the games stored now
  std::map<std::string, int64_t> games_by_worker;  // stored now ("local" for this process)
  // Entries whose game the run holds already (by content), by sending worker.
  std::map<std::string, int64_t> duplicates_by_worker;
  std::vector<std::string> notes;  // files taken back or dropped
  // Entries of each worker held back over its share (config::ClusterConfig::max_worker_share) since
  // the pending entries were last read: pending for the next collection.
  std::map<std::string, int64_t> held_by_worker;
};

class Learner {
 public:
  // Connects, takes the run's learner lock (refused while another learner serves the run
  // name: bad input naming it), creates the streams' groups and publishes the config.
  static util::Result<std::unique_ptr<Learner>> Start(LearnerOptions options);
  ~Learner();

  // Publishes the network of `checkpoint` (once; LearnerOptions::network_bytes), with
  // `current` as the network self-play uses. Returns its id.
  util::Result<std::string> Publish(const std::string& checkpoint, long long generation,
                                    bool current);
  // The ids of every network published for the run (self-play and arena).
  util::Result<std::set<std::string>> Networks();
  // The ids of the games of the run's earlier iterations (their directories): read once, so
  // that a game sent again later is not stored twice.
  util::Status AddEarlierGames(const std::vector<std::string>& dirs);
  // Collects the iteration's games (returns when it holds dir.games).
  util::Result<CollectReport> CollectSelfplay(const CollectRequest& request);
  // Where gate and ladder games are played.
  arena::RemoteGames& Arena();
  // A line for `veletas cluster status` (e.g. "gen 4 self-play").
  void SetStatus(const std::string& status);
  const IngestCounters& Totals() const { return session_->Totals(); }
  // The spot checks so far (this process).
  const SpotCheckTotals& SpotChecks() const { return checker_->Totals(); }
  // The quarantined workers and why (failed spot checks, this run).
  const std::map<std::string, std::string>& QuarantinedWorkers() const { return quarantined_; }

 private:
  explicit Learner(LearnerOptions options);
  util::Status TakeLock();
  // f() again every second while it fails because Redis is unreachable.
  template <class F>
  auto Retrying(F f) -> decltype(f());
  void KeepLock();

  LearnerOptions options_;
  RunKeys keys_;
  RedisClient redis_;
  std::unique_ptr<IngestSession> session_;
  std::unique_ptr<RemoteArena> arena_;
  GameIdSet earlier_;
  std::set<std::string> earlier_dirs_;
  // Publishes every network published before again (a Redis that lost its data).
  util::Status Republish();
  // Quarantines `worker` (a failed spot check, `why`): recorded in Redis, its games since
  // its last passed check excluded from training (data/excluded_games.h), logged.
  util::Status Quarantine(const std::string& worker, const std::string& why);
  // The evaluator of a network this learner published (nullptr for another one).
  util::Result<std::unique_ptr<search::Evaluator>> CheckNetwork(
      const std::string& id, std::optional<model::InferencePrecision> precision);

  struct Published {
    std::string id;
    long long generation = 0;
  };
  std::map<std::string, Published> published_;  // checkpoint path -> network
  std::string current_;                         // the checkpoint self-play uses
  std::string token_;
  std::mutex status_mutex_;
  std::string status_ = "starting";
  std::atomic<bool> stop_{false};
  // Entries the running collection holds back over their workers' shares: left out of the
  // queue count that pauses the workers (else they would pause the workers still owed games).
  std::atomic<int64_t> held_back_{0};
  std::thread lock_thread_;
  // Counts Redis's refusals and cuts workers' surplus connections: on the lock thread, with its
  // connection made at the start (a worker holding every connection later cannot keep it
  // out), or on the main thread's connection while that one is lost.
  std::unique_ptr<RedisGuard> guard_;
  std::unique_ptr<RedisClient> lock_redis_;
  std::atomic<bool> lock_connected_{false};
  std::chrono::steady_clock::time_point last_guard_{};  // the main thread's last guard check
  // Logs which of LearnerRights Redis refuses to the learner's user, and how to upgrade the
  // setup (`cluster upgrade-acl`); nothing when it has them all.
  void SayMissingRights();
  // The main thread's part of the guard (IngestSession::Every): logs the guard's notes, and
  // checks on redis_ while the lock thread has no connection.
  void GuardFromMainThread();
  std::unique_ptr<SpotChecker> checker_;
  std::map<std::string, std::string> quarantined_;  // worker -> why
};

}  // namespace veletas::cluster
