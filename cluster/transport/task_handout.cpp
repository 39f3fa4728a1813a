#include "cluster/transport/task_handout.h"

#include <cstdlib>

#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"

namespace veletas::cluster {
namespace {

const std::vector<std::string> kFields = {"id", "t", "since"};

// The task of an HMGET reply of kFields; nullopt without an id.
std::optional<HandedTask> TaskOfFields(const std::vector<std::optional<std::string>>& f) {
  if (f.size() != kFields.size() || !f[0] || f[0]->empty()) return std::nullopt;
  HandedTask t;
  t.id = *f[0];
  t.text = f[1].value_or("");
  t.since = std::atoll(f[2].value_or("0").c_str());
  return t;
}

}  // namespace

util::Status HandOutTask(RedisClient& redis, const RunKeys& keys, const std::string& worker,
                         const HandedTask& task) {
  // One transaction: the worker never sees an id with another task's text, and a key of
  // another type (made by hand) is replaced.
  const std::string key = keys.Task(worker);
  auto replies =
      RedisBatch()
          .Multi()
          .DeleteKey(key)
          .HashSet(key, {{"id", task.id}, {"t", task.text}, {"since", std::to_string(task.since)}})
          .Exec()
          .Send(redis);
  if (!replies) return replies.error_value();
  for (const RedisValue& r : replies.value()) {
    if (r.IsError()) return util::Status::Failure("redis: hand out " + key + ": " + r.str);
  }
  return util::Ok();
}

util::Result<std::optional<HandedTask>> HandedTaskOf(RedisClient& redis, const RunKeys& keys,
                                                     const std::string& worker) {
  auto fields = HashGetFields(redis, keys.Task(worker), kFields);
  if (!fields) return fields.error_value();
  return TaskOfFields(fields.value());
}

util::Status TakeBackTask(RedisClient& redis, const RunKeys& keys, const std::string& worker) {
  auto deleted = DeleteKeys(redis, {keys.Task(worker)});
  if (!deleted) return deleted.error_value();
  return util::Ok();
}

util::Result<std::map<std::string, WorkerTaskState>> WorkerTaskStates(
    RedisClient& redis, const RunKeys& keys, const std::vector<std::string>& workers) {
  std::map<std::string, WorkerTaskState> out;
  if (workers.empty()) return out;
  RedisBatch batch;
  for (const std::string& w : workers) {
    batch.GetValue(keys.Worker(w)).HashGetFields(keys.Task(w), kFields);
  }
  auto replies = batch.Send(redis);
  if (!replies) return replies.error_value();
  for (size_t i = 0; i < workers.size(); ++i) {
    const RedisValue& beat = replies.value()[2 * i];
    const RedisValue& task = replies.value()[2 * i + 1];
    // A key of another type (made by hand) holds nothing: no heartbeat, no task.
    WorkerTaskState& s = out[workers[i]];
    if (beat.IsString()) s.heartbeat = beat.str;
    s.handed = TaskOfFields(HashFieldValues(task, kFields.size()));
  }
  return out;
}

}  // namespace veletas::cluster
