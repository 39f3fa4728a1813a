// `veletas cluster status`: what a run served through Redis is doing, read from its keys
// (cluster/transport/keys.h): the learner, the workers alive (from their heartbeats) with their
// games/s, the queues and their pending entries, the pending arena tasks, the learner's counters
// and the latest rejected entries.
#pragma once

#include <string>

#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

// The status report as text (lines), with what Redis refused and to whom it can be blamed
// (cluster/transport/blame.h), whether Redis is full, and the connections of workers past their
// share; with `redis_log` (the path of Redis's log file, "" = none) also the connections Redis
// closed for a worker's unread replies (cluster/tools/redis_log.h). A Redis at its connection
// limit is tried for up to 30 s. Errors: Redis unreachable, a command refused, `redis_log`
// unreadable (bad input).
util::Result<std::string> ClusterStatus(RedisClient& redis, const RunKeys& keys,
                                        const std::string& redis_log = "");

}  // namespace veletas::cluster
