// The worker's heartbeat: a key with a TTL saying that it is alive and what it does, and
// naming the task it plays (which keeps the learner from taking the task back).
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cluster/transport/redis_commands.h"
#include "cluster/worker/worker_id.h"
#include "cluster/worker/worker_loop.h"

namespace veletas::cluster {

util::Status Worker::Heartbeat() {
  const double every = settings_->cluster.heartbeat_seconds;
  if (util::SecondsSince(last_heartbeat_) < every) return util::Ok();
  last_heartbeat_ = util::SteadyClock::now();
  double rate = 0;
  {
    std::lock_guard<std::mutex> lock(recent_mutex_);
    while (!recent_games_.empty() && util::SecondsSince(recent_games_.front()) > 60)
      recent_games_.pop_front();
    rate = static_cast<double>(recent_games_.size()) /
           std::min(60.0, std::max(1.0, util::SecondsSince(started_)));
  }
  nlohmann::json j;
  j["worker"] = id_;
  j["host"] = HostNameForIds();
  j["pid"] = static_cast<long long>(::getpid());
  j["state"] = task_               ? "arena task"
               : queue_full_       ? "paused (queue full)"
               : selfplay_.empty() ? "waiting"
                                   : "self-play";
  j["task"] = task_ ? task_->id : taking_;  // the learner renews this task's lease
  j["generation"] = selfplay_.empty() ? -1 : selfplay_.back()->generation;
  j["selfplay_games"] = selfplay_games_.load();
  j["selfplay_searches"] = selfplay_searches_.load();
  j["arena_games"] = arena_games_.load();
  j["tasks"] = report_.tasks;
  j["games_per_second"] = rate;
  j["spool"] = outbox_->Waiting() + outbox_->Unconfirmed();
  j["threads"] = settings_->selfplay.threads;
  j["uptime_seconds"] = util::SecondsSince(started_);
  const long long ttl_ms = static_cast<long long>(every * 3000);
  return SetValueWithTtl(redis_, keys_.Worker(id_), j.dump(), ttl_ms);
}

}  // namespace veletas::cluster
