#include "cluster/transport/worker_registry.h"

#include <algorithm>

#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "util/names.h"

namespace veletas::cluster {

util::Result<std::vector<std::string>> RegisteredWorkers(RedisClient& redis, const RunKeys& keys) {
  auto members = SetMembers(redis, keys.Workers());
  if (!members) return members.error_value();
  std::vector<std::string> out;
  for (const std::string& m : members.value()) {
    if (util::ValidateName(m, "worker", kMaxNameLength).ok()) out.push_back(m);
  }
  std::sort(out.begin(), out.end());
  return out;
}

util::Status RegisterWorker(RedisClient& redis, const RunKeys& keys, const std::string& name) {
  for (const std::string& key : {keys.WorkerSelfplay(name), keys.WorkerArena(name)}) {
    if (util::Status s = EnsureGroup(redis, key, kLearnerGroup); !s.ok()) return s;
  }
  return SetAddMember(redis, keys.Workers(), name);
}

util::Status UnregisterWorker(RedisClient& redis, const RunKeys& keys, const std::string& name) {
  if (util::Status s = SetRemoveMember(redis, keys.Workers(), name); !s.ok()) return s;
  auto deleted =
      DeleteKeys(redis, {keys.WorkerSelfplay(name), keys.WorkerArena(name), keys.Worker(name)});
  if (!deleted) return deleted.error_value();
  return util::Ok();
}

util::Result<int> LiveWorkers(RedisClient& redis, const RunKeys& keys) {
  auto workers = RegisteredWorkers(redis, keys);
  if (!workers) return workers.error_value();
  RedisBatch batch;
  for (const std::string& w : workers.value()) batch.KeyExists(keys.Worker(w));
  if (batch.Empty()) return 0;
  auto alive = batch.Send(redis);
  if (!alive) return alive.error_value();
  int n = 0;
  for (const RedisValue& a : alive.value()) n += a.IsInteger() && a.integer > 0;
  return n;
}

util::Result<long long> QueuedSelfplay(RedisClient& redis, const RunKeys& keys) {
  auto workers = RegisteredWorkers(redis, keys);
  if (!workers) return workers.error_value();
  RedisBatch batch;
  for (const std::string& w : workers.value()) batch.StreamLength(keys.WorkerSelfplay(w));
  if (batch.Empty()) return 0LL;
  auto lengths = batch.Send(redis);
  if (!lengths) return lengths.error_value();
  long long total = 0;
  for (const RedisValue& n : lengths.value()) total += n.IsInteger() ? n.integer : 0;
  return total;
}

}  // namespace veletas::cluster
