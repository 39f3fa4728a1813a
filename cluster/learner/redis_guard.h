// The learner's watch over what Redis itself can attribute to a worker (cluster/transport/
// blame.h), run every few seconds on the learner's lock thread with a connection of its own:
// - counts the refusals of Redis's ACL LOG into the run's stats (refused commands by worker,
//   failed logins apart) and empties the log in the same transaction, so that a flood of
//   failed logins cannot push a worker's refusals out of the log unseen;
// - closes every connection of a worker's user that holds more than kMaxWorkerConnections
//   (Redis has no per-user connection limit; `maxclients` is shared), and counts it against
//   the worker.
// What it could not count because Redis refused (full: OOM) is counted the next time. Lines
// worth logging are kept for the learner's main thread (TakeNotes).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/transport/blame.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"

namespace veletas::cluster {

class RedisGuard {
 public:
  explicit RedisGuard(const RunKeys& keys) : keys_(keys) {}

  // One round of both checks on `redis` (best with replies never cut short:
  // RedisOptions::max_string_bytes 0). Best effort: a learner whose user may not read the
  // ACL LOG or the client list (a setup older than these rights) says so once. Thread-safe
  // (one check at a time).
  void Check(RedisClient& redis);
  // The lines to log since the last call.
  std::vector<std::string> TakeNotes();

 private:
  void CountRefusals(RedisClient& redis);
  void CutConnections(RedisClient& redis);
  // Adds owed_ to the run's stats; keeps what Redis refused.
  void SaveCounts(RedisClient& redis);
  void Note(const std::string& line);
  // Notes "  cluster: <what>" unless `noted`; sets it.
  void NoteOnce(bool& noted, const std::string& what);

  const RunKeys keys_;
  std::map<std::string, long long> owed_;  // stats field -> not yet added
  bool acl_noted_ = false, clients_noted_ = false;
  std::mutex check_mutex_;  // one Check at a time
  std::mutex mutex_;        // notes_
  std::vector<std::string> notes_;
};

}  // namespace veletas::cluster
