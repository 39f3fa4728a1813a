// What Redis's own log (its `logfile`) says it did to a run's workers: the connections it
// closed because of their unread replies. Redis closes a connection whose unread replies pass
// `client-output-buffer-limit normal` ("Client id=... scheduled to be closed ASAP for
// overcoming of output buffer limits.") or evicts connections past `maxmemory-clients`
// ("Evicting client: id=..."), in a moment and before anyone else can see them, so only its
// log can say whose they were: each such line holds the connection's CLIENT LIST fields, its
// authenticated `user` among them. A worker is named only for a connection closed for output
// buffer limits, or evicted while holding more than kMaxWorkerReplyBytes of unread replies
// (an honest worker sends one request at a time and is never sent more than a 1 MiB network
// chunk); other evictions (under memory pressure Redis also evicts small, honest connections)
// are counted apart and blame nobody. Used by `veletas cluster status --redis-log FILE`.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>

#include "cluster/transport/keys.h"
#include "cluster/transport/networks.h"
#include "util/result.h"

namespace veletas::cluster {

// The most unread reply bytes an honest worker's connection can hold: one network chunk and
// the framing of its reply, with room to spare.
inline constexpr int64_t kMaxWorkerReplyBytes = int64_t{kModelChunkBytes} + 64 * 1024;
// Log lines longer than this are skipped (Redis cuts its own at 1,024 bytes).
inline constexpr size_t kMaxRedisLogLine = 64 * 1024;

// The connections of a run's workers that Redis's log says it closed.
struct RedisClosures {
  // Worker -> connections closed for their unread replies (each connection once).
  std::map<std::string, long long> unread_by_worker;
  // Connections of the run's workers evicted with at most kMaxWorkerReplyBytes unread: Redis
  // short of client memory (nobody blamed).
  long long evicted_small = 0;
  // Closures whose line names no user (cut short): nobody can be blamed for them.
  long long unattributed = 0;
};

// Reads a Redis log from `in`, line by line, for the run of `keys`. Connections of other
// users (other runs, the learner, operators) are left out.
RedisClosures ReadRedisClosures(const RunKeys& keys, std::istream& in);
// The same from the file `path`. Errors (bad input, naming it): the file cannot be opened or
// is a directory.
util::Result<RedisClosures> ReadRedisLogFile(const RunKeys& keys, const std::string& path);

}  // namespace veletas::cluster
