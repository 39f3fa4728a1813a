// The run's registered workers (RunKeys::Workers): each has its own result streams, read by
// the learner's group, and (with the setup of `veletas cluster setup`) its own Redis user.
// Registering makes the streams and their groups; the learner reads the set to know which
// streams to read; the workers' backpressure reads the learner's count of queued games.
#pragma once

#include <string>
#include <vector>

#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

// The names in the registry, sorted; members that are not valid worker names
// (util::ValidateName, kMaxNameLength) are left out.
util::Result<std::vector<std::string>> RegisteredWorkers(RedisClient& redis, const RunKeys& keys);

// Adds `name` to the registry and makes its two result streams with the learner's group
// (both kept when they exist). Precondition: `name` is a valid worker name.
util::Status RegisterWorker(RedisClient& redis, const RunKeys& keys, const std::string& name);

// Removes `name` from the registry and deletes its result streams (their queued games are
// dropped: a revoked worker's games are not used) and its heartbeat.
util::Status UnregisterWorker(RedisClient& redis, const RunKeys& keys, const std::string& name);

// The registered workers whose heartbeat key exists (alive within three heartbeat periods).
// A worker can set only its own heartbeat (docs/CLUSTER.md's ACL), so it can make only
// itself count.
util::Result<int> LiveWorkers(RedisClient& redis, const RunKeys& keys);

// The self-play games waiting in the streams of the registered workers (the sum of their
// lengths; a stream that is not a stream counts 0).
util::Result<long long> QueuedSelfplay(RedisClient& redis, const RunKeys& keys);

}  // namespace veletas::cluster
