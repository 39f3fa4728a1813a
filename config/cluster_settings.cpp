#include "config/cluster_settings.h"

#include "util/names.h"
#include "util/redis_url.h"
#include "util/settings_check.h"

namespace veletas::config {
namespace {

using S = ClusterConfig;
using util::Ends;
const util::Field<S> kFields[] = {
    util::StringField("redis", &S::redis, "the run's Redis server, redis://HOST[:PORT]"),
    util::StringField("run", &S::run, "the run's name in Redis; empty = the run directory's"),
    util::StringField("auth_file", &S::auth_file, "file with the learner's Redis credentials"),
    util::BoolField("local_selfplay", &S::local_selfplay, "the learner plays self-play too"),
    util::IntField("accept_previous_networks", &S::accept_previous_networks, 0, 1000,
                   "earlier networks whose games are still used"),
    util::IntField("max_queued_games", &S::max_queued_games, 0, 100'000'000,
                   "queued games that pause the workers; 0 = two generations' games"),
    util::IntField("arena_games_per_task", &S::arena_games_per_task, 1, 4096,
                   "games of one arena task"),
    util::RealField("task_timeout_seconds", &S::task_timeout_seconds, 1, 1e6,
                    "silence after which a task is taken over"),
    util::RealField("task_max_seconds", &S::task_max_seconds, 1, 1e6,
                    "time after which a task is taken back"),
    util::RealField("heartbeat_seconds", &S::heartbeat_seconds, 0.1, 3600,
                    "worker heartbeat period"),
    util::IntField("max_entry_bytes", &S::max_entry_bytes, 1024, 512LL << 20,
                   "largest result entry accepted"),
    util::IntField("ingest_batch", &S::ingest_batch, 1, 10000, "entries stored per batch"),
    util::RealField("max_worker_share", &S::max_worker_share, 0, 1,
                    "largest share of a generation's games from one worker", Ends::kOpenLow),
    util::RealField("spot_check_fraction", &S::spot_check_fraction, 0, 1,
                    "share of positions spot-checked"),
    util::RealField("spot_check_policy_tv", &S::spot_check_policy_tv, 0, 1,
                    "spot check: policy total-variation tolerance"),
    util::RealField("spot_check_value", &S::spot_check_value, 0, 2, "spot check: value tolerance"),
    util::RealField("spot_check_resign_margin", &S::spot_check_resign_margin, 0, 2,
                    "spot check: resignation margin"),
};

}  // namespace

std::span<const util::Field<ClusterConfig>> ClusterConfig::Fields() { return kFields; }

util::Status ClusterConfig::Validate() const {
  util::SettingsCheck check;
  if (!redis.empty()) {
    auto url = util::ParseRedisUrl(redis);
    check.That(url.ok(), "redis", url.ok() ? "" : url.error());
  }
  if (!run.empty()) {
    util::Status name = util::ValidateName(run, "run", kMaxClusterNameLength);
    check.That(name.ok(), "run", name.ok() ? "" : name.error());
  }
  util::CheckFields(Fields(), *this, check);
  return check.Result();
}

}  // namespace veletas::config
