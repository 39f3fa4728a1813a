#include "cluster/learner/redis_guard.h"

#include "cluster/learner/ingest_session.h"
#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"

namespace veletas::cluster {

void RedisGuard::Check(RedisClient& redis) {
  std::lock_guard<std::mutex> lock(check_mutex_);
  CountRefusals(redis);
  CutConnections(redis);
  SaveCounts(redis);
}

void RedisGuard::CountRefusals(RedisClient& redis) {
  auto log = DrainAclLog(redis, 2 * kAclLogLength);
  if (!log) {
    if (Refused(redis, log)) {
      NoteOnce(acl_noted_, "cannot read and empty Redis's ACL LOG (" + BoundedReason(log.error()) +
                               "); `cluster status` counts refusals from the log alone");
    }
    return;
  }
  const Refusals r = SortRefusals(keys_, log.value());
  for (const auto& [worker, n] : r.by_worker) owed_[kRefusedByField + worker] += n;
  if (r.failed_logins > 0) owed_[kFailedLoginsField] += r.failed_logins;
  for (const auto& [worker, n] : r.logins_as) owed_[kLoginsAsField + worker] += n;
}

void RedisGuard::CutConnections(RedisClient& redis) {
  auto clients = ClientList(redis);
  if (!clients) {
    if (Refused(redis, clients)) {
      NoteOnce(clients_noted_, "cannot list Redis's connections (" +
                                   BoundedReason(clients.error()) +
                                   "); no worker's connections are limited");
    }
    return;
  }
  for (const auto& [worker, n] : ConnectionsByWorker(keys_, clients.value())) {
    if (n <= kMaxWorkerConnections) continue;
    auto cut = KillUserClients(redis, keys_.WorkerUser(worker));
    if (!cut) continue;
    owed_[kConnectionsCutField + worker] += 1;
    Note("  cluster: worker " + BoundedReason(worker) + " held " + std::to_string(n) +
         " connections to Redis (more than " + std::to_string(kMaxWorkerConnections) +
         "): closed " + std::to_string(cut.value()));
  }
}

void RedisGuard::SaveCounts(RedisClient& redis) {
  if (owed_.empty()) return;
  RedisBatch batch;
  std::vector<std::string> fields;
  for (const auto& [field, n] : owed_) {
    batch.HashIncrBy(keys_.Stats(), field, n);
    fields.push_back(field);
  }
  auto replies = batch.Send(redis);
  if (!replies) return;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!replies.value()[i].IsError()) owed_.erase(fields[i]);
  }
}

void RedisGuard::NoteOnce(bool& noted, const std::string& what) {
  if (!noted) Note("  cluster: " + what);
  noted = true;
}

void RedisGuard::Note(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  notes_.push_back(line);
}

std::vector<std::string> RedisGuard::TakeNotes() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  out.swap(notes_);
  return out;
}

}  // namespace veletas::cluster
