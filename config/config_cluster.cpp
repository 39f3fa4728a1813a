#include "config/config.h"

namespace veletas::config {

// YAML mapping of section `cluster` (cluster::ClusterConfig); the ranges are its Validate().
void ParseClusterSection(ConfigSection& s, cluster::ClusterConfig& out) {
  out.redis = s.String("redis", out.redis);
  if (out.redis.empty()) {  // the section asks for a cluster: it needs its server
    throw ConfigError(s.Where("redis") + "expected redis://HOST[:PORT] in a cluster section");
  }
  out.run = s.String("run", out.run);
  out.auth_file = s.String("auth_file", out.auth_file);
  out.local_selfplay = s.Bool("local_selfplay", out.local_selfplay);
  out.accept_previous_networks =
      s.SmallInt("accept_previous_networks", out.accept_previous_networks);
  out.max_queued_games = s.Int("max_queued_games", out.max_queued_games);
  out.arena_games_per_task = s.SmallInt("arena_games_per_task", out.arena_games_per_task);
  out.task_timeout_seconds = s.Real("task_timeout_seconds", out.task_timeout_seconds);
  out.task_max_seconds = s.Real("task_max_seconds", out.task_max_seconds);
  out.heartbeat_seconds = s.Real("heartbeat_seconds", out.heartbeat_seconds);
  out.max_entry_bytes = s.Int("max_entry_bytes", out.max_entry_bytes);
  out.ingest_batch = s.SmallInt("ingest_batch", out.ingest_batch);
  out.max_worker_share = s.Real("max_worker_share", out.max_worker_share);
  out.spot_check_fraction = s.Real("spot_check_fraction", out.spot_check_fraction);
  out.spot_check_policy_tv = s.Real("spot_check_policy_tv", out.spot_check_policy_tv);
  out.spot_check_value = s.Real("spot_check_value", out.spot_check_value);
  out.spot_check_resign_margin = s.Real("spot_check_resign_margin", out.spot_check_resign_margin);
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
