#include "cluster/learner/ingest_session.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <thread>

#include "cluster/learner/validate.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/worker_registry.h"
#include "util/names.h"

namespace veletas::cluster {
namespace {

constexpr int kLoggedRejections = 100;  // then every 100th
constexpr double kTrimSeconds = 5;
// Dead letters kept (XADD MAXLEN ~): the oldest go first.
constexpr long long kDeadLetters = 10000;

std::string StreamOf(const RunKeys& keys, EntryKind kind, const std::string& worker) {
  return kind == EntryKind::kArena ? keys.WorkerArena(worker) : keys.WorkerSelfplay(worker);
}

}  // namespace

std::string BoundedReason(std::string_view message) {
  std::string out = util::EscapedBytes(message.substr(0, kMaxReasonLength));
  if (out.size() > kMaxReasonLength || message.size() > kMaxReasonLength) {
    out.resize(kMaxReasonLength - 3);
    // Not in the middle of an escape: "\xH" or "\x" at the end goes.
    const size_t slash = out.rfind('\\');
    if (slash != std::string::npos && slash + 4 > out.size()) out.resize(slash);
    out += "...";
  }
  return out;
}

std::string SenderOf(const StreamEntry& entry) { return entry.sender.empty() ? "?" : entry.sender; }

util::Status IngestSession::Reconnect() {
  for (;;) {
    util::Status s = redis_.Connect();
    if (s.ok()) {
      if (lost_) Print("  cluster: Redis is back");
      lost_ = false;
      // A Redis restarted from an append-only file that missed the groups' last second
      // has lost them too: made again as the streams are read (Repair).
      grouped_.clear();
      return util::Ok();
    }
    if (s.kind() == util::ErrorKind::kBadInput) return s;
    if (!lost_) Print("  cluster: " + s.error() + "; waiting for Redis");
    lost_ = true;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

util::Status IngestSession::Repair(const std::string& stream) {
  auto type = KeyType(redis_, stream);
  if (!type) return redis_.Connected() ? util::Ok() : type.error_value();
  const std::string worker = owner_.count(stream) ? owner_[stream] : "?";
  if (type.value() != "stream" && type.value() != "none") {
    const std::string aside = keys_.Broken(worker) + ":" + std::to_string(std::time(nullptr));
    Print("  cluster: " + stream + " (worker " + worker + ") is a " + type.value() +
          ", not a stream; moved to " + aside + " and made again");
    util::Status moved = RenameKey(redis_, stream, aside);
    if (!moved.ok() && !redis_.Connected()) return moved;
  }
  grouped_.erase(stream);
  cursor_.erase(stream);
  util::Status s = EnsureGroup(redis_, stream, kLearnerGroup);
  if (!s.ok()) {
    if (!redis_.Connected()) return s;
    Print("  cluster: " + stream + " (worker " + worker + "): " + BoundedReason(s.error()) +
          "; skipped for now");
    return util::Ok();
  }
  grouped_.insert(stream);
  return util::Ok();
}

util::Status IngestSession::CheckEpoch() {
  auto exists = KeyExists(redis_, keys_.Epoch());
  if (!exists) return exists.error_value();
  if (exists.value()) return util::Ok();
  std::set<std::string> workers;
  for (const auto& [stream, worker] : owner_) workers.insert(worker);
  Print("  cluster: Redis has lost the run's data (restarted without it): registering " +
        std::to_string(workers.size()) + " workers again and publishing the networks again");
  for (const std::string& w : workers) {
    if (util::Status s = RegisterWorker(redis_, keys_, w); !s.ok()) return s;
  }
  grouped_.clear();
  cursor_.clear();
  if (on_data_lost_) {
    if (util::Status s = on_data_lost_(); !s.ok()) return s;
  }
  return SetValue(redis_, keys_.Epoch(), std::to_string(std::time(nullptr)));
}

util::Result<std::vector<std::string>> IngestSession::Streams(EntryKind kind) {
  auto workers = RegisteredWorkers(redis_, keys_);
  if (!workers) return workers.error_value();
  std::vector<std::string> out;
  for (const std::string& w : workers.value()) {
    const std::string stream = StreamOf(keys_, kind, w);
    owner_[stream] = w;
    if (!grouped_.count(stream)) {
      if (util::Status s = Repair(stream); !s.ok()) return s.error_value();
      if (!grouped_.count(stream)) continue;
    }
    out.push_back(stream);
  }
  return out;
}

std::vector<StreamEntry> IngestSession::Tagged(std::vector<StreamEntry> entries,
                                               const std::string& stream) {
  for (StreamEntry& e : entries) {
    e.stream = stream;
    e.sender = owner_[stream];
  }
  return entries;
}

util::Result<std::vector<StreamEntry>> IngestSession::Next(EntryKind kind) {
  for (;;) {
    auto batch = TryNext(kind);
    if (!batch) return batch.error_value();
    if (!batch.value()) continue;
    if (!trouble_.empty()) Print("  cluster: Redis takes commands again (" + trouble_ + " before)");
    trouble_.clear();
    return std::move(*batch.value());
  }
}

void IngestSession::Lost(const std::string& why) {
  if (!lost_) Print("  cluster: " + why + "; waiting for Redis");
  lost_ = true;
  cursor_.clear();  // what was delivered may not have been acknowledged
}

bool IngestSession::Refusing(const util::Error& error) {
  const std::string why = RedisTrouble(redis_, error);
  if (why.empty() || !redis_.Connected()) return false;
  if (why != trouble_) {
    Print("  cluster: " + why + ": " + BoundedReason(error.message) + "; trying again");
  }
  trouble_ = why;
  std::this_thread::sleep_for(std::chrono::seconds(1));
  return true;
}

util::Result<IngestSession::Batch> IngestSession::TryNext(EntryKind kind) {
  if (every_) every_();
  if (!redis_.Connected() || lost_) {
    if (util::Status s = Reconnect(); !s.ok()) {
      if (Refusing(s.error_value())) return Batch();
      return s.error_value();
    }
  }
  util::Status epoch = CheckEpoch();
  util::Result<std::vector<std::string>> streams =
      epoch.ok() ? Streams(kind) : util::Result<std::vector<std::string>>(epoch.error_value());
  if (!streams) {
    if (Refusing(streams.error_value())) return Batch();
    if (redis_.Connected()) return streams.error_value();
    Lost(streams.error());
    return Batch();
  }
  auto pending = ClaimPending(streams.value());
  if (!pending || !pending.value() || !pending.value()->empty()) return pending;
  if (streams.value().empty()) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    return Batch(std::vector<StreamEntry>());
  }
  return ReadNew(kind, streams.value());
}

util::Result<IngestSession::Batch> IngestSession::ClaimPending(
    const std::vector<std::string>& streams) {
  for (const std::string& stream : streams) {
    std::string& cursor = cursor_[stream];
    if (cursor.empty()) cursor = "0-0";
    if (cursor == "done") continue;
    auto claimed =
        AutoClaim(redis_, stream, kLearnerGroup, kLearnerConsumer, 0, cursor, config_.ingest_batch);
    if (!claimed) {
      if (!redis_.Connected()) {
        Lost("Redis connection lost");
        return Batch();
      }
      if (util::Status s = Repair(stream); !s.ok()) return s.error_value();
      continue;
    }
    cursor = claimed.value().next == "0-0" ? "done" : claimed.value().next;
    if (!claimed.value().entries.empty()) return Batch(Tagged(claimed.value().entries, stream));
  }
  return Batch(std::vector<StreamEntry>());
}

util::Result<IngestSession::Batch> IngestSession::ReadNew(EntryKind kind,
                                                          const std::vector<std::string>& all) {
  const size_t batch = static_cast<size_t>(std::max(1, config_.ingest_batch));
  const size_t n = std::min(all.size(), batch);
  std::vector<std::string> chosen;
  for (size_t i = 0; i < n; ++i) chosen.push_back(all[(rotate_ + i) % all.size()]);
  rotate_ = (rotate_ + n) % all.size();
  auto read = ReadGroupStreams(redis_, kLearnerGroup, kLearnerConsumer,
                               static_cast<int>(std::max<size_t>(1, batch / n)), 1000, chosen);
  if (Refused(redis_, read)) {
    // One stream's trouble (NOGROUP, WRONGTYPE): mend what needs it, read the rest.
    Print("  cluster: reading the workers' streams: " + BoundedReason(read.error()));
    for (const std::string& s : chosen) {
      if (util::Status r = Repair(s); !r.ok()) return r.error_value();
    }
    return Batch();
  }
  if (!read) {
    Lost(read.error());
    return Batch();
  }
  std::vector<StreamEntry> out;
  for (StreamEntry& e : read.value()) {
    const auto owner = owner_.find(e.stream);
    if (owner == owner_.end()) continue;
    e.sender = owner->second;
    out.push_back(std::move(e));
  }
  // Nothing new: what was acknowledged must not keep the workers' queue looking full.
  if (out.empty()) Trim(kind);
  return Batch(std::move(out));
}

// What Settle does with one batch: acknowledgements, counts, dead letters and log lines.
struct IngestSession::Settlement {
  std::map<std::string, std::vector<std::string>> acks;  // stream -> ids
  IngestCounters now;
  // Stats field prefix ("accepted-by:", "duplicates-by:", "rejected-by:") -> worker -> entries.
  std::map<std::string, std::map<std::string, int64_t>> by_worker;
  std::vector<std::string> logged;
  std::vector<RedisFields> dead;  // the fields of the dead letters
  // The stats fields to add to (Counts), in the order of their HINCRBY commands.
  std::vector<std::pair<std::string, int64_t>> counts;
};

void IngestSession::Reject(const StreamEntry& entry, const std::string& message, Settlement& out) {
  ++out.now.rejected;
  ++out.now.rejected_by_reason[RejectionReason(BoundedReason(message))];
  ++out.by_worker["rejected-by:"][SenderOf(entry)];
  const std::string reason = BoundedReason(message);
  const std::string line = "entry " + entry.id + " from worker " + SenderOf(entry) + ": " + reason;
  out.logged.push_back(std::to_string(std::time(nullptr)) + " " + line);
  out.dead.push_back({{"worker", SenderOf(entry)}, {"entry", entry.id}, {"reason", reason}});
  ++rejections_logged_;
  if (rejections_logged_ <= kLoggedRejections || rejections_logged_ % 100 == 0) {
    Print("  cluster: rejected " + line);
  }
}

std::vector<std::pair<std::string, int64_t>> IngestSession::Counts(const Settlement& s) {
  std::map<std::string, int64_t> add;
  add.swap(unsaved_);
  for (const auto& [field, n] : std::map<std::string, int64_t>{{"accepted", s.now.accepted},
                                                               {"duplicates", s.now.duplicates},
                                                               {"stale", s.now.stale},
                                                               {"rejected", s.now.rejected}}) {
    add[field] += n;
  }
  for (const auto& [reason, n] : s.now.rejected_by_reason) add["rejected:" + reason] += n;
  for (const auto& [prefix, counts] : s.by_worker) {
    for (const auto& [worker, n] : counts) add[prefix + worker] += n;
  }
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& [field, n] : add) {
    if (n > 0) out.emplace_back(field, n);
  }
  return out;
}

RedisBatch IngestSession::SettleCommands(const Settlement& s) const {
  // Dead letters first: an entry is acknowledged only when its dead letter is stored (or
  // Redis refused it, e.g. when full).
  RedisBatch commands;
  for (const RedisFields& fields : s.dead) {
    commands.StreamAddCapped(keys_.Dead(), kDeadLetters, fields);
  }
  for (const auto& [stream, ids] : s.acks) commands.StreamAck(stream, kLearnerGroup, ids);
  const std::string stats = keys_.Stats();
  for (const auto& [field, n] : s.counts) commands.HashIncrBy(stats, field, n);
  for (const std::string& line : s.logged) commands.ListPush(keys_.Rejections(), line);
  if (!s.logged.empty()) commands.ListTrim(keys_.Rejections(), 0, 199);
  commands.HashSet(stats, {{"last_ingest", std::to_string(std::time(nullptr))}});
  return commands;
}

util::Status IngestSession::Settle(EntryKind kind, const std::vector<StreamEntry>& entries,
                                   const std::vector<Verdict>& verdicts) {
  Settlement settled;
  IngestCounters& now = settled.now;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Verdict& v = verdicts[i];
    if (v.kind == Verdict::Kind::kKeep) continue;
    settled.acks[entries[i].stream].push_back(entries[i].id);
    switch (v.kind) {
      case Verdict::Kind::kAccepted:
        ++now.accepted;
        ++settled.by_worker["accepted-by:"][SenderOf(entries[i])];
        break;
      case Verdict::Kind::kDuplicate:
        ++now.duplicates;
        ++settled.by_worker["duplicates-by:"][SenderOf(entries[i])];
        break;
      case Verdict::Kind::kStale:
        ++now.stale;
        break;
      default:
        Reject(entries[i], v.message, settled);
    }
  }
  if (settled.acks.empty()) return util::Ok();
  settled.counts = Counts(settled);
  auto replies = SettleCommands(settled).Send(redis_);
  if (!replies) {
    // Not acknowledged: the entries come again and are counted as duplicates then.
    lost_ = true;
    return util::Ok();
  }
  size_t i = settled.dead.size();  // the first XACK's reply
  for (const auto& [stream, ids] : settled.acks) {
    const RedisValue& r = replies.value()[i++];
    if (r.IsError()) {
      // The stream went away or changed under us: its entries come again after Repair.
      Print("  cluster: XACK " + stream + ": " + BoundedReason(r.str));
      if (util::Status s = Repair(stream); !s.ok()) return s;
    }
  }
  // Counts Redis refused (full: OOM) are added to the next batch's, so that a worker that
  // fills Redis is still counted once the learner has drained it.
  for (const auto& [field, n] : settled.counts) {
    const RedisValue& r = replies.value()[i++];
    if (r.IsError()) unsaved_[field] += n;
  }
  totals_.accepted += now.accepted;
  totals_.duplicates += now.duplicates;
  totals_.stale += now.stale;
  totals_.rejected += now.rejected;
  for (const auto& [reason, n] : now.rejected_by_reason) totals_.rejected_by_reason[reason] += n;
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_trim_).count() >=
      kTrimSeconds) {
    Trim(kind);
  }
  return util::Ok();
}

void IngestSession::Trim(EntryKind kind) {
  last_trim_ = std::chrono::steady_clock::now();
  for (const auto& [stream, worker] : owner_) {
    if (stream != StreamOf(keys_, kind, worker) || !grouped_.count(stream)) continue;
    // Everything below `below` is stored (GameStore::Add is durable) or judged: trimmed, and
    // the worker may delete its spooled copies (Outbox::Flush).
    auto below = AcknowledgedBelow(redis_, stream, kLearnerGroup);
    if (!below || below.value().empty()) continue;
    RedisBatch()
        .StreamTrimBelow(stream, below.value())
        .SetValue(keys_.Stored(stream), below.value())
        .Send(redis_);
  }
}

}  // namespace veletas::cluster
