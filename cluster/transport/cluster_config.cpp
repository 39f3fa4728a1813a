#include "cluster/transport/cluster_config.h"
#include "util/names.h"

#include "cluster/transport/keys.h"
#include "cluster/transport/redis_url.h"
#include "util/settings_check.h"

namespace veletas::cluster {

util::Status ClusterConfig::Validate() const {
  util::SettingsCheck check;
  if (!redis.empty()) {
    auto url = ParseRedisUrl(redis);
    check.That(url.ok(), "redis", url.ok() ? "" : url.error());
  }
  if (!run.empty()) {
    util::Status name = util::ValidateName(run, "run", cluster::kMaxNameLength);
    check.That(name.ok(), "run", name.ok() ? "" : name.error());
  }
  return check.Int("accept_previous_networks", accept_previous_networks, 0, 1000)
      .Int("max_queued_games", max_queued_games, 0, 100'000'000)
      .Int("arena_games_per_task", arena_games_per_task, 1, 4096)
      .Real("task_timeout_seconds", task_timeout_seconds, 1, 1e6)
      .Real("task_max_seconds", task_max_seconds, 1, 1e6)
      .Real("heartbeat_seconds", heartbeat_seconds, 0.1, 3600)
      .Int("max_entry_bytes", max_entry_bytes, 1024, 512LL << 20)
      .Int("ingest_batch", ingest_batch, 1, 10000)
      .Real("max_worker_share", max_worker_share, 0, 1, util::Ends::kOpenLow)
      .Real("spot_check_fraction", spot_check_fraction, 0, 1)
      .Real("spot_check_policy_tv", spot_check_policy_tv, 0, 1)
      .Real("spot_check_value", spot_check_value, 0, 2)
      .Real("spot_check_resign_margin", spot_check_resign_margin, 0, 2)
      .Result();
}

}  // namespace veletas::cluster
