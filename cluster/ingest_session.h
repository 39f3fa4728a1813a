// The learner's side of a result stream: reads entries with the "learner" consumer group
// (first every entry still pending from an earlier session, taken over with XAUTOCLAIM, then
// new ones), waits for Redis when it is gone, acknowledges entries only when the caller says
// their effect is durable, counts and logs what it rejects (with the sender's worker id), and
// trims the stream below the oldest pending entry. Used by the self-play collection
// (cluster/learner.h) and the remote arena (cluster/remote_arena.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cluster/cluster_config.h"
#include "cluster/keys.h"
#include "cluster/redis_client.h"
#include "cluster/streams.h"
#include "util/result.h"

namespace veletas::cluster {

struct IngestCounters {
  int64_t accepted = 0;
  int64_t duplicates = 0;  // a game id the run holds already (a game sent twice)
  int64_t stale = 0;       // a game of a network no longer used, or of a finished match
  int64_t rejected = 0;    // invalid entries, by reason in rejected_by_reason
  std::map<std::string, int64_t> rejected_by_reason;
};

// What to do with one entry read.
struct Verdict {
  enum class Kind { kAccepted, kDuplicate, kStale, kRejected, kKeep };
  Kind kind = Kind::kRejected;
  std::string message;  // kRejected: "<reason>: <what>"; kStale: why
};

class IngestSession {
 public:
  using Log = std::function<void(const std::string&)>;
  // `redis` must outlive the session; Log gets the lines worth printing.
  IngestSession(RedisClient& redis, const RunKeys& keys, const ClusterConfig& config, Log log)
      : redis_(redis), keys_(keys), config_(config), log_(std::move(log)) {}

  // Starts reading `stream` again from its pending entries (call when a collection starts).
  void Restart() { cursor_.clear(); }
  // The next entries of `stream` (up to config.ingest_batch; waits up to a second for new
  // ones). Waits while Redis is unreachable (logging it once, and when it is back). Errors:
  // a failure while connected (e.g. a refused command).
  util::Result<std::vector<StreamEntry>> Next(const std::string& stream);
  // Acknowledges the entries whose verdicts are not kKeep, counts them (totals here and the
  // run's stats hash in Redis), logs rejections with the entry's sender (field "w"), and
  // trims the stream every few seconds. Precondition: verdicts parallel to entries.
  util::Status Settle(const std::string& stream, const std::vector<StreamEntry>& entries,
                      const std::vector<Verdict>& verdicts);

  // Trims `stream` below its oldest pending or undelivered entry (XTRIM MINID), so that the
  // workers' view of the queue (XLEN) counts only games still to be stored. Best effort.
  void Trim(const std::string& stream);

  const IngestCounters& Totals() const { return totals_; }
  RedisClient& Redis() { return redis_; }
  const RunKeys& Keys() const { return keys_; }
  const ClusterConfig& Config() const { return config_; }
  void Print(const std::string& line) const {
    if (log_) log_(line);
  }

 private:
  util::Status Reconnect();

  RedisClient& redis_;
  const RunKeys& keys_;
  const ClusterConfig& config_;
  Log log_;
  std::map<std::string, std::string> cursor_;  // stream -> XAUTOCLAIM cursor; "done" when new
  IngestCounters totals_;
  int64_t rejections_logged_ = 0;
  bool lost_ = false;
  std::chrono::steady_clock::time_point last_trim_{};
};

// The sender's worker id of `entry` (field "w"), reduced to printable characters; "?" when
// missing.
std::string SenderOf(const StreamEntry& entry);

}  // namespace veletas::cluster
