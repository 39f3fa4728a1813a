#include "app/config.h"
#include "cluster/keys.h"
#include "cluster/redis_client.h"

namespace veletas::app {

void ParseClusterSection(ConfigSection& s, cluster::ClusterConfig& out) {
  out.redis = s.String("redis", out.redis);
  if (auto url = cluster::ParseRedisUrl(out.redis); !url) {
    throw ConfigError(s.Where("redis") + url.error());
  }
  out.run = s.String("run", out.run);
  if (!out.run.empty()) {
    if (util::Status v = cluster::ValidateName("run", out.run); !v.ok()) {
      throw ConfigError(s.Where("run") + v.error());
    }
  }
  out.auth_file = s.String("auth_file", out.auth_file);
  out.local_selfplay = s.Bool("local_selfplay", out.local_selfplay);
  out.accept_previous_networks =
      s.SmallInt("accept_previous_networks", out.accept_previous_networks, 0, 1000);
  out.max_queued_games = s.Int("max_queued_games", out.max_queued_games, 0, 100'000'000);
  out.arena_games_per_task = s.SmallInt("arena_games_per_task", out.arena_games_per_task, 1, 4096);
  out.task_timeout_seconds = s.Real("task_timeout_seconds", out.task_timeout_seconds, 1, 1e6);
  out.heartbeat_seconds = s.Real("heartbeat_seconds", out.heartbeat_seconds, 0.1, 3600);
  out.spool_grace_seconds = s.Real("spool_grace_seconds", out.spool_grace_seconds, 0, 3600);
  out.max_entry_bytes = s.Int("max_entry_bytes", out.max_entry_bytes, 1024, 512LL << 20);
  out.ingest_batch = s.SmallInt("ingest_batch", out.ingest_batch, 1, 10000);
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
