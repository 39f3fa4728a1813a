// Settings of a cluster run (YAML section `cluster`, docs/CLUSTER.md): data with defaults, one
// table of settings and Validate() with the allowed values (cluster_settings.cpp). Here in
// config/, below cluster/, which uses them. The learner publishes its whole config, this
// section included, so the workers read the same values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::config {

// Longest run name or worker id of a cluster (they become parts of Redis keys,
// cluster/transport/keys.h): checked with util::ValidateName(name, what, kMaxClusterNameLength).
inline constexpr size_t kMaxClusterNameLength = 64;

struct ClusterConfig {
  // The Redis server of the run, "redis://HOST:PORT"; empty: no cluster (everything is
  // played in the learner's process).
  std::string redis;
  // The run's name in Redis (its keys start with "vz:<run>:"); empty: the name of the run
  // directory.
  std::string run;
  // File with the learner's Redis user and password (cluster/transport/redis_client.h
  // LoadRedisAuth); empty: VELETAS_REDIS_AUTH_FILE, VELETAS_REDIS_USER / VELETAS_REDIS_PASSWORD, or
  // none.
  std::string auth_file;
  // The learner also plays self-play games itself, besides ingesting the workers' games.
  bool local_selfplay = false;
  // Self-play games of this many earlier self-play networks (before the current best) are
  // still used; games of older networks are dropped as stale.
  int accept_previous_networks = 1;
  // Workers pause self-play while this many games wait in the queue; 0 = twice the games of
  // a generation.
  int64_t max_queued_games = 0;
  // Games of one arena task (a batch of games of one match).
  int arena_games_per_task = 8;
  // A task whose worker has been silent this long is taken over by another worker
  // (XAUTOCLAIM); keep it longer than the longest arena game.
  double task_timeout_seconds = 300;
  // A task held longer than this is taken back whatever its holder's heartbeat says (a
  // worker keeping a task alive without playing it, or one far too slow); so is a task held
  // past 4 times the median time of the last completed tasks, once 3 are known, but never
  // before task_timeout_seconds. Its former holder can still complete it. Keep it longer
  // than a task's games take on the slowest worker.
  double task_max_seconds = 3600;
  // How often a worker refreshes its heartbeat (its key lives three times as long).
  double heartbeat_seconds = 2;
  // The largest result entry the learner accepts (bytes).
  int64_t max_entry_bytes = 4 << 20;
  // Entries the learner reads, checks and stores in one batch (one flush).
  int ingest_batch = 64;
  // The largest share of one generation's self-play games that one worker's games may fill,
  // in (0, 1]: a worker's games beyond ceil(share x the generation's games) wait, pending,
  // for the next generation. With N live workers (heartbeat alive; the learner's own
  // self-play counts as one) the share used is max(max_worker_share, 1/N), so the live
  // workers can always fill a generation and a lone worker fills it alone.
  double max_worker_share = 1;
  // Spot checks (selfplay/spot_check.h): the share of each worker's recorded positions the
  // learner checks against the network that played them, in [0, 1] (0: none), and the
  // tolerances: total variation of the policy target, and the Q of an action visited once
  // against the network's value. A worker that fails one is quarantined. With checks on,
  // every resigned game is checked too: the learner's own search of its last position must
  // find a value for the resigning player of at most selfplay.resign_threshold +
  // spot_check_resign_margin (selfplay/spot_check.h, CheckResignation).
  double spot_check_fraction = 0.01;
  double spot_check_policy_tv = 0.02;
  double spot_check_value = 0.02;
  double spot_check_resign_margin = 0.5;

  // The settings above, one row each (key, member, range, help; cluster_settings.cpp).
  static std::span<const util::Field<ClusterConfig>> Fields();
  // Ok, or bad input "<key>: <what>" for the first setting out of its range, a URL that is
  // not redis://HOST[:PORT] (an empty one is allowed: no cluster) or a bad run name.
  util::Status Validate() const;
};

}  // namespace veletas::config
