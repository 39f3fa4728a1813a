// The learner's side of the workers' result streams (one self-play and one arena stream per
// registered worker, cluster/transport/worker_registry.h): reads entries with the "learner"
// consumer group (first every entry still pending from an earlier session, taken over with
// XAUTOCLAIM, then new ones, from at most ingest_batch streams at a time), waits for Redis
// when it is gone, acknowledges entries only when the caller says their effect is durable,
// counts and logs what it rejects (with the stream's owner as the sender, per worker in the
// run's stats) and puts it in the dead-letter stream, and trims each stream below its oldest
// pending entry. A stream whose group is missing gets it again; a key of another type where
// a stream should be (WRONGTYPE) is moved aside and the stream made again; the other workers'
// streams are read meanwhile. Used by the self-play collection (cluster/learner/learner.h) and the
// remote arena (cluster/learner/remote_arena.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/transport/entry.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_client.h"
#include "cluster/transport/streams.h"
#include "config/cluster_settings.h"
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

// The longest rejection message stored, logged or shown (longer ones are cut).
inline constexpr size_t kMaxReasonLength = 200;

// `message` made safe to log and store: bytes outside printable ASCII escaped (\xHH), at
// most kMaxReasonLength characters (cut with "..."). Reads at most the first
// kMaxReasonLength bytes of `message`.
std::string BoundedReason(std::string_view message);

class IngestSession {
 public:
  using Log = std::function<void(const std::string&)>;
  // `redis` must outlive the session; Log gets the lines worth printing.
  IngestSession(RedisClient& redis, const RunKeys& keys, const config::ClusterConfig& config,
                Log log)
      : redis_(redis), keys_(keys), config_(config), log_(std::move(log)) {}

  // Called when Redis is found without the run's epoch key (restarted without its data),
  // after the workers this session has read from are registered again: e.g. republishes
  // the networks. Errors stop Next.
  void OnDataLost(std::function<util::Status()> f) { on_data_lost_ = std::move(f); }
  // Called at the start of every read of Next (on its thread), e.g. to log what another
  // thread found.
  void Every(std::function<void()> f) { every_ = std::move(f); }
  // Starts reading the streams again from their pending entries (call when a collection
  // starts).
  void Restart() { cursor_.clear(); }
  // The next entries of the registered workers' streams of `kind` (up to config.ingest_batch;
  // waits up to a second for new ones), each with its stream and sender set. Waits while
  // Redis is unreachable (logging it once, and when it is back). Errors: a failure while
  // connected that is not one stream's (e.g. the registry cannot be read).
  util::Result<std::vector<StreamEntry>> Next(EntryKind kind);
  // Acknowledges the entries whose verdicts are not kKeep, counts them (totals here and the
  // run's stats hash in Redis, rejections also per sender), logs rejections (message cut by
  // BoundedReason) and adds them to the dead-letter stream, and trims the streams every few
  // seconds. Precondition: verdicts parallel to entries, entries from Next.
  util::Status Settle(EntryKind kind, const std::vector<StreamEntry>& entries,
                      const std::vector<Verdict>& verdicts);

  // Trims the streams of `kind` below their oldest pending or undelivered entry (XTRIM
  // MINID), so that the queue's length counts only games still to be stored, and tells
  // their workers that id (RunKeys::Stored). Best effort.
  void Trim(EntryKind kind);

  const IngestCounters& Totals() const { return totals_; }
  RedisClient& Redis() { return redis_; }
  const RunKeys& Keys() const { return keys_; }
  const config::ClusterConfig& Config() const { return config_; }
  void Print(const std::string& line) const {
    if (log_) log_(line);
  }

 private:
  util::Status Reconnect();
  // Detects a Redis that lost the run's data (no epoch key) and restores what the session
  // knows: the epoch, the registry of the workers it has read from, then OnDataLost (the
  // arena writes its handed-out tasks again by itself, RemoteArena).
  util::Status CheckEpoch();
  // The registered workers' streams of `kind` (groups made for new ones).
  util::Result<std::vector<std::string>> Streams(EntryKind kind);
  // Makes `stream`'s group again (a stream that is not one is moved aside first); logs what
  // it did. An error only when Redis is gone.
  util::Status Repair(const std::string& stream);
  // Entries of `entries` tagged with their stream and its owner.
  std::vector<StreamEntry> Tagged(std::vector<StreamEntry> entries, const std::string& stream);
  // Steps of Next. A Batch is the entries to return (possibly none), or nullopt when Next
  // must try again (Redis lost, a stream mended).
  using Batch = std::optional<std::vector<StreamEntry>>;
  // One try: reconnects if needed, then the pending entries, else new ones.
  util::Result<Batch> TryNext(EntryKind kind);
  // Entries delivered before and never acknowledged (a killed learner, or entries left for
  // the next collection), from any consumer, stream by stream; none when all are read.
  util::Result<Batch> ClaimPending(const std::vector<std::string>& streams);
  // New entries: from at most ingest_batch of `streams` (taking turns), so that one read holds
  // at most ingest_batch entries.
  util::Result<Batch> ReadNew(EntryKind kind, const std::vector<std::string>& streams);
  // Says once that Redis is lost (`why`), and forgets the claim cursors.
  void Lost(const std::string& why);
  // Steps of Settle: a rejected entry's count, dead letter and log line; the pipelined
  // commands that store a batch's outcome.
  struct Settlement;
  void Reject(const StreamEntry& entry, const std::string& message, Settlement& out);
  // The stats increments of `s` with those Redis refused before (unsaved_, taken).
  std::vector<std::pair<std::string, int64_t>> Counts(const Settlement& s);
  // True when `error` is Redis refusing for want of resources while connected: logs why
  // (once per kind of trouble), waits a second.
  bool Refusing(const util::Error& error);
  RedisBatch SettleCommands(const Settlement& s) const;

  RedisClient& redis_;
  const RunKeys& keys_;
  const config::ClusterConfig& config_;
  Log log_;
  std::function<util::Status()> on_data_lost_;
  std::function<void()> every_;
  std::map<std::string, int64_t> unsaved_;     // stats increments Redis refused (OOM)
  std::string trouble_;                        // RedisTrouble while it lasts, else ""
  std::map<std::string, std::string> cursor_;  // stream -> XAUTOCLAIM cursor; "done" when new
  std::map<std::string, std::string> owner_;   // stream -> worker
  std::set<std::string> grouped_;              // streams whose group this session made
  size_t rotate_ = 0;                          // the first stream of the next XREADGROUP
  IngestCounters totals_;
  int64_t rejections_logged_ = 0;
  bool lost_ = false;
  std::chrono::steady_clock::time_point last_trim_{};
};

// The sender of `entry`: the owner of the stream it was read from; "?" when unknown.
std::string SenderOf(const StreamEntry& entry);

}  // namespace veletas::cluster
