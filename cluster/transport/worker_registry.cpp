#include "cluster/transport/worker_registry.h"

#include <algorithm>

#include "cluster/transport/streams.h"
#include "util/names.h"

namespace veletas::cluster {

util::Result<std::vector<std::string>> RegisteredWorkers(RedisClient& redis, const RunKeys& keys) {
  auto members = redis.Call({"SMEMBERS", keys.Workers()});
  if (!members) return members.error_value();
  std::vector<std::string> out;
  for (const RedisValue& m : members.value().elements) {
    if (util::ValidateName(m.str, "worker", kMaxNameLength).ok()) out.push_back(m.str);
  }
  std::sort(out.begin(), out.end());
  return out;
}

util::Status RegisterWorker(RedisClient& redis, const RunKeys& keys, const std::string& name) {
  for (const std::string& key : {keys.WorkerSelfplay(name), keys.WorkerArena(name)}) {
    if (util::Status s = EnsureGroup(redis, key, kLearnerGroup); !s.ok()) return s;
  }
  auto added = redis.Call({"SADD", keys.Workers(), name});
  if (!added) return added.error_value();
  return util::Ok();
}

util::Status UnregisterWorker(RedisClient& redis, const RunKeys& keys, const std::string& name) {
  auto removed = redis.Call({"SREM", keys.Workers(), name});
  if (!removed) return removed.error_value();
  auto deleted =
      redis.Call({"DEL", keys.WorkerSelfplay(name), keys.WorkerArena(name), keys.Worker(name)});
  if (!deleted) return deleted.error_value();
  return util::Ok();
}

util::Result<int> LiveWorkers(RedisClient& redis, const RunKeys& keys) {
  auto workers = RegisteredWorkers(redis, keys);
  if (!workers) return workers.error_value();
  std::vector<std::vector<std::string>> commands;
  for (const std::string& w : workers.value()) commands.push_back({"EXISTS", keys.Worker(w)});
  if (commands.empty()) return 0;
  auto alive = redis.Pipeline(commands);
  if (!alive) return alive.error_value();
  int n = 0;
  for (const RedisValue& a : alive.value()) n += a.IsInteger() && a.integer > 0;
  return n;
}

util::Result<long long> QueuedSelfplay(RedisClient& redis, const RunKeys& keys) {
  auto workers = RegisteredWorkers(redis, keys);
  if (!workers) return workers.error_value();
  std::vector<std::vector<std::string>> commands;
  for (const std::string& w : workers.value()) commands.push_back({"XLEN", keys.WorkerSelfplay(w)});
  if (commands.empty()) return 0LL;
  auto lengths = redis.Pipeline(commands);
  if (!lengths) return lengths.error_value();
  long long total = 0;
  for (const RedisValue& n : lengths.value()) total += n.IsInteger() ? n.integer : 0;
  return total;
}

}  // namespace veletas::cluster
