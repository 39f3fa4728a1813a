#include "cluster/worker/outbox.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "cluster/transport/redis_batch.h"
#include "cluster/transport/streams.h"
#include "util/atomic_file.h"
#include "util/run_dir.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

constexpr int kBatch = 64;

// "s" for self-play, "a" for arena: the second part of a file name "<stamp>.<kind>.vze".
EntryKind KindOf(const std::string& name) {
  return name.find(".a.vze") != std::string::npos ? EntryKind::kArena : EntryKind::kSelfplay;
}

// Why nothing can be added to `stream` any more, and what the operator does about it.
std::string ExhaustedStream(const std::string& stream, const std::string& worker, size_t kept) {
  return "redis: stream " + stream +
         " has used up its ids (an entry with the largest possible id, "
         "18446744073709551615-18446744073709551615, was added to it with worker " +
         worker +
         "'s credentials): no game can be added to it any more. Once `veletas cluster status` "
         "shows none of its games queued, `veletas cluster remove-worker " +
         worker + "` and `add-worker " + worker + "` make its streams anew; the " +
         std::to_string(kept) +
         " games in the spool are kept and sent when this worker is started again";
}

// The Stored marks of `worker`'s streams (stream -> mark; none yet: ""), after a PING, so a
// server that died since the last call shows here (and the next call reconnects).
util::Result<std::map<std::string, std::string>> ReadMarks(RedisClient& redis, const RunKeys& keys,
                                                           const std::string& worker) {
  using R = util::Result<std::map<std::string, std::string>>;
  const std::vector<std::string> streams{keys.WorkerSelfplay(worker), keys.WorkerArena(worker)};
  RedisBatch batch;
  batch.Ping();
  for (const std::string& s : streams) batch.GetValue(keys.Stored(s));
  auto replies = batch.Send(redis);
  if (!replies) return replies.error_value();
  std::map<std::string, std::string> marks;
  for (size_t i = 0; i < streams.size(); ++i) {
    const RedisValue& r = replies.value()[i + 1];
    if (r.IsError() && r.str.starts_with("NOPERM")) {
      return R::Error("redis: worker " + worker + " may not read " + keys.Stored(streams[i]) +
                      " (its user was made by an older `veletas cluster add-worker`): "
                      "`veletas cluster remove-worker " +
                      worker + "` and `add-worker " + worker +
                      "` give it a user with the current rule; its spool keeps "
                      "every game the learner has not stored, and sends them then");
    }
    if (r.IsError()) return R::Failure("redis: GET " + keys.Stored(streams[i]) + ": " + r.str);
    marks[streams[i]] = r.IsString() ? r.str : std::string();
  }
  return marks;
}

}  // namespace

util::Result<std::unique_ptr<Outbox>> Outbox::Open(const std::string& dir) {
  using R = util::Result<std::unique_ptr<Outbox>>;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return R::Failure(dir + ": cannot create the spool directory" +
                      (ec ? ": " + ec.message() : std::string()));
  }
  std::unique_ptr<Outbox> box(new Outbox(dir));
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (util::IsTemporaryName(name)) {
      fs::remove(e.path(), ec);  // a Put killed before its rename: the game was not finished
    } else if (name.size() > 6 && name.ends_with(".vze")) {
      box->waiting_.insert(name);
    }
  }
  if (ec) return R::Failure(dir + ": cannot list the spool directory: " + ec.message());
  return box;
}

util::Result<std::string> Outbox::Put(EntryKind kind, std::string_view entry) {
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t now =
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count());
    last_stamp_ = std::max(last_stamp_ + 1, now);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%020" PRIu64 ".%s.vze", last_stamp_,
                  kind == EntryKind::kArena ? "a" : "s");
    name = buf;
  }
  if (util::Status s = util::WriteFileAtomic((fs::path(dir_) / name).string(), entry); !s.ok()) {
    return s.error_value();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  waiting_.insert(name);
  return name;
}

util::Result<int> Outbox::Flush(RedisClient& redis, const RunKeys& keys,
                                const std::string& worker) {
  // Nothing sent on a connection that broke is confirmed.
  auto marks = ReadMarks(redis, keys, worker);
  if (!marks) return marks.error_value();
  std::unique_lock<std::mutex> lock(mutex_);
  Confirm(marks.value(), redis.Connections());
  int sent = 0;
  while (!waiting_.empty()) {
    std::vector<std::string> names;
    for (auto it = waiting_.begin(); it != waiting_.end() && names.size() < kBatch; ++it) {
      names.push_back(*it);
    }
    lock.unlock();
    RedisBatch batch;
    std::vector<std::string> sendable, streams;
    for (const std::string& name : names) {
      auto bytes = util::ReadFile((fs::path(dir_) / name).string());
      if (!bytes) {  // removed by hand: nothing to send
        lock.lock();
        waiting_.erase(name);
        lock.unlock();
        continue;
      }
      const std::string key = KindOf(name) == EntryKind::kArena ? keys.WorkerArena(worker)
                                                                : keys.WorkerSelfplay(worker);
      batch.StreamAdd(key, {{"e", std::move(bytes.value())}});
      sendable.push_back(name);
      streams.push_back(key);
    }
    if (batch.Empty()) {
      lock.lock();
      continue;
    }
    auto replies = batch.Send(redis);
    lock.lock();
    if (!replies) return replies.error_value();
    for (size_t i = 0; i < sendable.size(); ++i) {
      const RedisValue& r = replies.value()[i];
      if (r.IsError() && r.str.find("exhausted the last possible ID") != std::string::npos) {
        return util::Result<int>::Error(ExhaustedStream(streams[i], worker, waiting_.size()));
      }
      if (r.IsError()) {
        return util::Result<int>::Failure("redis: XADD " + streams[i] + ": " + r.str);
      }
      waiting_.erase(sendable[i]);
      sent_.push_back({sendable[i], streams[i], r.str, redis.Connections()});
      ++sent;
    }
  }
  return sent;
}

void Outbox::Confirm(const std::map<std::string, std::string>& marks, uint64_t connection) {
  for (auto it = sent_.begin(); it != sent_.end();) {
    const auto mark = marks.find(it->stream);
    if (it->connection != connection) {
      waiting_.insert(it->name);  // the server may have lost it: send it again
      it = sent_.erase(it);
    } else if (mark != marks.end() && !mark->second.empty() && StreamIdLess(it->id, mark->second)) {
      std::error_code ec;
      fs::remove(fs::path(dir_) / it->name, ec);
      it = sent_.erase(it);
    } else {
      ++it;
    }
  }
}

bool Outbox::Sent(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !waiting_.count(name);
}

size_t Outbox::Waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_.size();
}

size_t Outbox::Unconfirmed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sent_.size();
}

}  // namespace veletas::cluster
