#include "cluster/ingest_session.h"

#include <cctype>
#include <chrono>
#include <ctime>
#include <thread>

#include "cluster/validate.h"

namespace veletas::cluster {
namespace {

constexpr int kLoggedRejections = 100;  // then every 100th
constexpr double kTrimSeconds = 5;

}  // namespace

std::string SenderOf(const StreamEntry& entry) {
  const std::string* w = entry.Field("w");
  if (w == nullptr || w->empty()) return "?";
  std::string out;
  for (char c : w->substr(0, 64)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return out;
}

util::Status IngestSession::Reconnect() {
  for (;;) {
    util::Status s = redis_.Connect();
    if (s.ok()) {
      if (lost_) Print("  cluster: Redis is back");
      lost_ = false;
      // A Redis restarted without its data has lost the groups: make them again.
      for (const std::string& key : {keys_.SelfplayResults(), keys_.ArenaResults()}) {
        if (util::Status g = EnsureGroup(redis_, key, kLearnerGroup); !g.ok()) return g;
      }
      return EnsureGroup(redis_, keys_.Tasks(), kWorkerGroup);
    }
    if (s.kind() == util::ErrorKind::kBadInput) return s;
    if (!lost_) Print("  cluster: " + s.error() + "; waiting for Redis");
    lost_ = true;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

util::Result<std::vector<StreamEntry>> IngestSession::Next(const std::string& stream) {
  for (;;) {
    if (!redis_.Connected() || lost_) {
      if (util::Status s = Reconnect(); !s.ok()) return s.error_value();
    }
    std::string& cursor = cursor_[stream];
    if (cursor.empty()) cursor = "0-0";
    util::Result<std::vector<StreamEntry>> got = std::vector<StreamEntry>();
    if (cursor != "done") {
      // Entries delivered before and never acknowledged (a killed learner, or entries left
      // for the next collection), from any consumer.
      auto claimed = AutoClaim(redis_, stream, kLearnerGroup, kLearnerConsumer, 0, cursor,
                               config_.ingest_batch);
      if (claimed) {
        cursor = claimed.value().next == "0-0" ? "done" : claimed.value().next;
        got = claimed.value().entries;
        if (got.value().empty() && cursor == "done") continue;
      } else {
        got = claimed.error_value();
      }
    } else {
      got = ReadGroup(redis_, stream, kLearnerGroup, kLearnerConsumer, config_.ingest_batch, 1000,
                      /*pending=*/false);
      // Nothing new: what was acknowledged must not keep the workers' queue looking full.
      if (got && got.value().empty()) Trim(stream);
    }
    if (got) return got;
    if (redis_.Connected()) {
      if (got.error().find("NOGROUP") == std::string::npos) return got;
      lost_ = true;  // groups gone (a Redis without its AOF): made again by Reconnect
      continue;
    }
    if (!lost_) Print("  cluster: " + got.error() + "; waiting for Redis");
    lost_ = true;
    cursor = "0-0";  // what was delivered may not have been acknowledged
  }
}

util::Status IngestSession::Settle(const std::string& stream,
                                   const std::vector<StreamEntry>& entries,
                                   const std::vector<Verdict>& verdicts) {
  std::vector<std::string> acks;
  IngestCounters now;
  std::vector<std::string> logged;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Verdict& v = verdicts[i];
    if (v.kind == Verdict::Kind::kKeep) continue;
    acks.push_back(entries[i].id);
    switch (v.kind) {
      case Verdict::Kind::kAccepted:
        ++now.accepted;
        break;
      case Verdict::Kind::kDuplicate:
        ++now.duplicates;
        break;
      case Verdict::Kind::kStale:
        ++now.stale;
        break;
      default: {
        ++now.rejected;
        ++now.rejected_by_reason[RejectionReason(v.message)];
        const std::string line =
            "entry " + entries[i].id + " from worker " + SenderOf(entries[i]) + ": " + v.message;
        logged.push_back(std::to_string(std::time(nullptr)) + " " + line);
        ++rejections_logged_;
        if (rejections_logged_ <= kLoggedRejections || rejections_logged_ % 100 == 0) {
          Print("  cluster: rejected " + line);
        }
      }
    }
  }
  if (acks.empty()) return util::Ok();
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> ack{"XACK", stream, kLearnerGroup};
  ack.insert(ack.end(), acks.begin(), acks.end());
  commands.push_back(ack);
  const std::string stats = keys_.Stats();
  for (const auto& [field, n] : std::map<std::string, int64_t>{{"accepted", now.accepted},
                                                               {"duplicates", now.duplicates},
                                                               {"stale", now.stale},
                                                               {"rejected", now.rejected}}) {
    if (n > 0) commands.push_back({"HINCRBY", stats, field, std::to_string(n)});
  }
  for (const auto& [reason, n] : now.rejected_by_reason) {
    commands.push_back({"HINCRBY", stats, "rejected:" + reason, std::to_string(n)});
  }
  for (const std::string& line : logged) {
    commands.push_back({"LPUSH", keys_.Rejections(), line});
  }
  if (!logged.empty()) commands.push_back({"LTRIM", keys_.Rejections(), "0", "199"});
  commands.push_back({"HSET", stats, "last_ingest", std::to_string(std::time(nullptr))});
  auto replies = redis_.Pipeline(commands);
  if (!replies) {
    // Not acknowledged: the entries come again and are counted as duplicates then.
    lost_ = true;
    return util::Ok();
  }
  if (replies.value().front().IsError()) {
    return util::Status::Failure("redis: XACK " + stream + ": " + replies.value().front().str);
  }
  totals_.accepted += now.accepted;
  totals_.duplicates += now.duplicates;
  totals_.stale += now.stale;
  totals_.rejected += now.rejected;
  for (const auto& [reason, n] : now.rejected_by_reason) totals_.rejected_by_reason[reason] += n;
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_trim_).count() >=
      kTrimSeconds) {
    Trim(stream);
  }
  return util::Ok();
}

void IngestSession::Trim(const std::string& stream) {
  last_trim_ = std::chrono::steady_clock::now();
  TrimAcknowledged(redis_, stream, kLearnerGroup);
}

}  // namespace veletas::cluster
