// Arena tasks handed to workers. The learner hands each task to one worker by writing it into
// a key of that worker's own (RunKeys::Task: a hash {id, t, since}), which the learner alone
// writes and the worker only reads (its ACL: HMGET of that one key). So the key is the
// learner's own record of who holds what: reading it leaves no trace to hide and takes
// nothing away, no worker can take a task in a way the learner does not see, and taking a
// task back is deleting the key (cluster/learner/remote_arena.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

// A task as handed out.
struct HandedTask {
  std::string id;       // unique in the run (the learner's choice)
  std::string text;     // the task (cluster/transport/task.h, EncodeTask)
  long long since = 0;  // when it was handed out (unix seconds)
};

// Hands `task` to `worker` (replacing what its key held).
util::Status HandOutTask(RedisClient& redis, const RunKeys& keys, const std::string& worker,
                         const HandedTask& task);

// The task handed to `worker`, nullopt when none (no key, or a key without an id).
util::Result<std::optional<HandedTask>> HandedTaskOf(RedisClient& redis, const RunKeys& keys,
                                                     const std::string& worker);

// Takes back whatever task `worker` holds (deletes its key).
util::Status TakeBackTask(RedisClient& redis, const RunKeys& keys, const std::string& worker);

// What the learner's hand-out round needs of one worker, read for many in one round trip.
struct WorkerTaskState {
  std::optional<std::string> heartbeat;  // its heartbeat (RunKeys::Worker), nullopt: not alive
  std::optional<HandedTask> handed;      // the task its key holds
};
util::Result<std::map<std::string, WorkerTaskState>> WorkerTaskStates(
    RedisClient& redis, const RunKeys& keys, const std::vector<std::string>& workers);

}  // namespace veletas::cluster
