#include "cluster/tools/status.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "cluster/tools/audit.h"
#include "cluster/tools/redis_log.h"
#include "cluster/transport/blame.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/task.h"
#include "cluster/transport/task_handout.h"
#include "cluster/transport/worker_registry.h"
#include "util/json.h"
#include "util/names.h"

namespace veletas::cluster {
namespace {

constexpr int kConnectTries = 30;  // a second apart, at Redis's connection limit

// The value of `field` in `hash`, "-" when it has none.
std::string Field(const std::map<std::string, std::string>& hash, const std::string& field) {
  const auto it = hash.find(field);
  return it == hash.end() ? "-" : it->second;
}

// The count `key` of a worker's heartbeat `j` (0 when missing or not a count).
long long Count(const nlohmann::json& j, const char* key) {
  return util::JsonValueOr<long long>(j, key, 0);
}

// Worker -> n for the stats fields "<prefix><worker>".
std::map<std::string, long long> ByWorker(const std::map<std::string, std::string>& stats,
                                          const std::string& prefix) {
  std::map<std::string, long long> out;
  for (const auto& [field, value] : stats) {
    if (field.rfind(prefix, 0) == 0) out[field.substr(prefix.size())] += std::atoll(value.c_str());
  }
  return out;
}

// "w1 3, w2 4" (names escaped and cut: they may quote what a worker sent).
std::string CountList(const std::map<std::string, long long>& counts) {
  std::string out;
  for (const auto& [worker, n] : counts) {
    out += (out.empty() ? "" : ", ") + util::EscapedBytes(worker.substr(0, 64)) + " " +
           std::to_string(n);
  }
  return out;
}

// What Redis refused, by whom it can be blamed on (cluster/transport/blame.h): the learner's
// counts of the ACL LOG it emptied (`stats`) and the log's entries since. A worker is named
// only for refusals under its own login; failed logins of no worker's session are counted by
// the name tried, blaming nobody. Nothing from the log where the status's user may not read it.
void RefusedSection(RedisClient& redis, const RunKeys& keys,
                    const std::map<std::string, std::string>& stats, std::ostream& out) {
  std::map<std::string, long long> by_worker = ByWorker(stats, kRefusedByField);
  std::map<std::string, long long> logins_as = ByWorker(stats, kLoginsAsField);
  long long failed = std::atoll(Field(stats, kFailedLoginsField).c_str());
  std::map<std::string, std::string> newest;
  if (auto log = AclLog(redis, 2 * kAclLogLength)) {  // without a count: the newest 10
    const Refusals r = SortRefusals(keys, log.value());
    for (const auto& [w, n] : r.by_worker) by_worker[w] += n;
    for (const auto& [w, n] : r.logins_as) logins_as[w] += n;
    failed += r.failed_logins;
    newest = r.newest;
  }
  if (!by_worker.empty()) {
    out << "refused by Redis (ACL LOG) by worker:";
    const char* sep = " ";
    for (const auto& [worker, n] : by_worker) {
      out << sep << util::EscapedBytes(worker.substr(0, 64)) << " " << n;
      if (newest.count(worker)) {
        out << " (newest: " << util::EscapedBytes(newest[worker].substr(0, 80)) << ")";
      }
      sep = ", ";
    }
    out << "\n";
  }
  if (failed > 0) {
    out << "failed logins of no worker's session (anyone may try any name; nobody blamed): "
        << failed;
    if (!logins_as.empty()) out << ", under workers' names: " << CountList(logins_as);
    out << "\n";
  }
}

// Connections by worker now (CLIENT LIST, where the status's user may list them) and the
// times the learner closed a worker's connections for holding more than its share.
void ConnectionsSection(RedisClient& redis, const RunKeys& keys,
                        const std::map<std::string, std::string>& stats, std::ostream& out) {
  const std::map<std::string, long long> cut = ByWorker(stats, kConnectionsCutField);
  if (!cut.empty()) {
    out << "connections closed by the learner (more than " << kMaxWorkerConnections
        << " at once) by worker: " << CountList(cut) << "\n";
  }
  auto clients = ClientList(redis);
  if (!clients) return;
  std::map<std::string, long long> over;
  for (const auto& [worker, n] : ConnectionsByWorker(keys, clients.value())) {
    if (n > kMaxWorkerConnections) over[worker] = n;
  }
  if (!over.empty()) {
    out << "workers holding more than " << kMaxWorkerConnections
        << " connections now: " << CountList(over) << "\n";
  }
}

// The connections of workers Redis closed for their unread replies, from its log (cluster/
// tools/redis_log.h): a worker named only where the log line names its user and the closure
// was for its own unread replies.
void ClosuresSection(const RedisClosures& c, const std::string& path, std::ostream& out) {
  if (!c.unread_by_worker.empty()) {
    out << "connections closed by Redis for unread replies (from its log " << path
        << ") by worker: " << CountList(c.unread_by_worker) << "\n";
  }
  if (c.evicted_small > 0) {
    out << "connections of workers evicted by Redis short of client memory, with few unread "
           "replies (nobody blamed): "
        << c.evicted_small << "\n";
  }
  if (c.unattributed > 0) {
    out << "connections closed by Redis whose log line names no user (nobody blamed): "
        << c.unattributed << "\n";
  }
}

// "N entries (P pending at the group, L not yet read)" for streams `keys` together.
util::Result<std::string> StreamLine(RedisClient& redis, const std::vector<std::string>& keys,
                                     const std::string& group) {
  long long length = 0, pending = 0, lag = 0;
  for (const std::string& key : keys) {
    auto len = StreamLength(redis, key);
    if (!len) return len.error_value();
    length += len.value();
    auto groups = StreamGroups(redis, key);
    if (Refused(redis, groups)) continue;  // no such stream (yet)
    if (!groups) return groups.error_value();
    for (const GroupInfo& g : groups.value()) {
      if (g.name != group) continue;
      pending += g.pending;
      lag += g.lag;
    }
  }
  return std::to_string(length) + " entries (" + std::to_string(pending) + " pending at the " +
         group + ", " + std::to_string(lag) + " not yet read)";
}

// The server: version, memory, persistence.
util::Status ServerSection(RedisClient& redis, std::ostream& out) {
  auto server = ServerInfo(redis, "server");
  if (!server) return server.error_value();
  auto memory = ServerInfo(redis, "memory");
  auto persistence = ServerInfo(redis, "persistence");
  auto fsync = ConfigGet(redis, "appendfsync");
  auto s = server.value();
  auto m = memory ? memory.value() : std::map<std::string, std::string>{};
  auto p = persistence ? persistence.value() : std::map<std::string, std::string>{};
  const std::string appendfsync = fsync && fsync.value() ? *fsync.value() : "?";
  out << "redis " << redis.Options().endpoint.ToString() << ": version " << s["redis_version"]
      << ", used memory " << m["used_memory_human"] << ", aof "
      << (p["aof_enabled"] == "1" ? "on" : "OFF") << ", appendfsync " << appendfsync << "\n";
  // Why workers and the learner may be waiting: a full Redis refuses every write (their games
  // wait in their spools), one at its connection limit every new connection.
  const long long used = std::atoll(m["used_memory"].c_str());
  const long long max = std::atoll(m["maxmemory"].c_str());
  if (max > 0 && used >= max) {
    out << "redis is FULL: used memory " << used << " of maxmemory " << max
        << " bytes; writes are refused (OOM) and finished games wait in the workers' spools\n";
  }
  if (auto clients = ServerInfo(redis, "clients")) {
    auto c = clients.value();
    auto limit = ConfigGet(redis, "maxclients");
    const std::string maxclients = limit && limit.value() ? *limit.value() : "?";
    out << "redis connections: " << c["connected_clients"] << " of maxclients " << maxclients;
    out << "\n";
  }
  return util::Ok();
}

// The learner holding the run and the network self-play uses.
util::Status LearnerSection(RedisClient& redis, const RunKeys& keys, std::ostream& out) {
  auto learner = GetValue(redis, keys.Learner());
  if (!learner) return learner.error_value();
  if (!learner.value()) {
    out << "learner: none (no learner holds the run now)\n";
  } else {
    const auto parsed = util::ParseJson(*learner.value(), "learner");
    if (parsed && parsed.value().is_object()) {
      const nlohmann::json& j = parsed.value();
      out << "learner: " << util::JsonValueOr<std::string>(j, "host", "?") << " pid "
          << util::JsonValueOr<long long>(j, "pid", 0) << ", "
          << util::JsonValueOr<std::string>(j, "run_dir", "?") << ": "
          << util::JsonValueOr<std::string>(j, "status", "?") << "\n";
    }
  }
  auto current = HashGetFields(redis, keys.Current(), {"id", "generation"});
  if (!current) return current.error_value();
  if (const std::vector<std::optional<std::string>>& c = current.value(); c[0]) {
    out << "self-play network: gen " << c[1].value_or("") << " (" << c[0]->substr(0, 16)
        << "...)\n";
  } else {
    out << "self-play network: none published yet\n";
  }
  return util::Ok();
}

// The registered workers, those alive (their heartbeat keys) one line each, and their
// games/s.
util::Status WorkersSection(RedisClient& redis, const RunKeys& keys, std::ostream& out) {
  auto registered = RegisteredWorkers(redis, keys);
  if (!registered) return registered.error_value();
  std::vector<std::string> alive_workers;
  for (const std::string& w : registered.value()) {
    auto alive = KeyExists(redis, keys.Worker(w));
    if (!alive) return alive.error_value();
    if (alive.value()) alive_workers.push_back(w);
  }
  out << "workers registered: " << registered.value().size() << ", alive: " << alive_workers.size()
      << "\n";
  double total_rate = 0;
  if (!alive_workers.empty()) {
    char header[200];
    std::snprintf(header, sizeof header, "  %-28s %-20s %4s %9s %8s %6s %9s %6s\n", "worker",
                  "state", "gen", "selfplay", "arena", "tasks", "games/s", "spool");
    out << header;
  }
  for (const std::string& w : alive_workers) {
    // The name is the key's (the worker's own), not what its heartbeat says.
    const std::string k = keys.Worker(w);
    auto v = GetValue(redis, k);
    if (!v || !v.value()) continue;  // expired meanwhile
    const auto parsed = util::ParseJson(*v.value(), k);
    if (!parsed || !parsed.value().is_object()) continue;
    const nlohmann::json& j = parsed.value();
    const double rate = util::JsonValueOr<double>(j, "games_per_second", 0.0);
    total_rate += rate;
    char line[300];
    std::snprintf(
        line, sizeof line, "  %-28s %-20s %4lld %9lld %8lld %6lld %9.2f %6lld\n", w.c_str(),
        util::EscapedBytes(util::JsonValueOr<std::string>(j, "state", "?").substr(0, 20)).c_str(),
        util::JsonValueOr<long long>(j, "generation", -1), Count(j, "selfplay_games"),
        Count(j, "arena_games"), Count(j, "tasks"), rate, Count(j, "spool"));
    out << line;
  }
  if (!alive_workers.empty()) {
    char line[80];
    std::snprintf(line, sizeof line, "  all workers: %.2f games/s\n", total_rate);
    out << line;
  }
  return util::Ok();
}

// The streams, and the arena tasks the learner handed out: who holds what.
util::Status StreamsSection(RedisClient& redis, const RunKeys& keys, std::ostream& out) {
  auto registered = RegisteredWorkers(redis, keys);
  if (!registered) return registered.error_value();
  std::vector<std::string> selfplay, arena;
  for (const std::string& w : registered.value()) {
    selfplay.push_back(keys.WorkerSelfplay(w));
    arena.push_back(keys.WorkerArena(w));
  }
  for (const auto& [title, streams] :
       {std::pair<const char*, std::vector<std::string>>{"self-play results", selfplay},
        {"arena results", arena}}) {
    auto line = StreamLine(redis, streams, kLearnerGroup);
    if (!line) return line.error_value();
    out << title << ": " << line.value() << "\n";
  }
  auto states = WorkerTaskStates(redis, keys, registered.value());
  if (!states) return states.error_value();
  std::ostringstream held;
  int n = 0;
  for (const auto& [worker, state] : states.value()) {
    if (!state.handed) continue;
    ++n;
    auto task = DecodeTask(state.handed->text);
    held << "  task " << util::EscapedBytes(state.handed->id.substr(0, 40)) << " held by " << worker
         << ": "
         << (task ? task.value().match + ", games " + IndexRanges(task.value().games)
                  : std::string("(unreadable)"))
         << ", for "
         << std::max(0LL, static_cast<long long>(std::time(nullptr)) - state.handed->since)
         << " s\n";
  }
  out << "arena tasks handed out by the learner: " << n << "\n" << held.str();
  return util::Ok();
}

// The learner's counters and the latest rejected entries.
util::Status CountersSection(RedisClient& redis, const RunKeys& keys, std::ostream& out) {
  auto stats = HashGetAll(redis, keys.Stats());
  if (!stats) return stats.error_value();
  const std::map<std::string, std::string>& st = stats.value();
  out << "learner counters: accepted " << Field(st, "accepted") << ", duplicates "
      << Field(st, "duplicates") << ", stale " << Field(st, "stale") << ", rejected "
      << Field(st, "rejected");
  if (st.count("reassigned")) out << ", tasks taken back " << Field(st, "reassigned");
  std::string reasons;
  for (const auto& [field, value] : st) {
    if (field.rfind("rejected:", 0) == 0) {
      reasons += (reasons.empty() ? "" : ", ") + field.substr(9) + " " + value;
    }
  }
  if (!reasons.empty()) out << " (" << reasons << ")";
  out << "\n";
  // Counted by the learner as it judged each worker's entries (what a worker's heartbeat
  // says of itself is its own claim).
  for (const auto& [prefix, title] :
       {std::pair<std::string, const char*>{"accepted-by:", "accepted"},
        {"duplicates-by:", "duplicate"},
        {"rejected-by:", "rejected"}}) {
    std::string by_worker;
    for (const auto& [field, value] : st) {
      if (field.rfind(prefix, 0) == 0) {
        by_worker += (by_worker.empty() ? "" : ", ") + field.substr(prefix.size()) + " " + value;
      }
    }
    if (!by_worker.empty()) out << title << " entries by worker: " << by_worker << "\n";
  }
  auto quarantined = HashGetAll(redis, keys.Quarantined());
  if (!quarantined) return quarantined.error_value();
  for (const auto& [worker, why] : quarantined.value()) {
    // Written by the learner, but worker names and reasons quote what workers sent.
    out << "quarantined worker " << util::EscapedBytes(worker.substr(0, 64)) << ": "
        << util::EscapedBytes(why.substr(0, 200)) << "\n";
  }
  std::string taken_back;
  for (const auto& [field, value] : st) {
    if (field.rfind("taken-back:", 0) == 0) {
      taken_back += (taken_back.empty() ? "" : ", ") + field.substr(11) + " " + value;
    }
  }
  if (!taken_back.empty()) out << "arena tasks taken back by worker: " << taken_back << "\n";
  RefusedSection(redis, keys, st, out);
  ConnectionsSection(redis, keys, st, out);
  auto recent = ListRange(redis, keys.Rejections(), 0, 4);
  if (recent && !recent.value().empty()) {
    out << "latest rejected entries:\n";
    for (const std::string& r : recent.value()) out << "  " << r << "\n";
  }
  return util::Ok();
}

}  // namespace

util::Result<std::string> ClusterStatus(RedisClient& redis, const RunKeys& keys,
                                        const std::string& redis_log) {
  std::optional<RedisClosures> closures;
  if (!redis_log.empty()) {
    auto read = ReadRedisLogFile(keys, redis_log);
    if (!read) return read.error_value();
    closures = std::move(read.value());
  }
  std::ostringstream out;
  // A Redis at its connection limit (a worker holding every connection until the learner
  // closes them) is tried again for a while.
  for (int tries = 1;; ++tries) {
    util::Status connected = redis.Connect();
    if (connected.ok()) {
      if (tries > 1) {
        out << "(Redis was at its connection limit: connected at try " << tries << ")\n";
      }
      break;
    }
    if (RedisTrouble(redis, connected.error_value()).find("connection limit") ==
            std::string::npos ||
        tries >= kConnectTries) {
      return connected.error_value();
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  util::Status s = ServerSection(redis, out);
  if (s.ok()) s = LearnerSection(redis, keys, out);
  if (s.ok()) s = WorkersSection(redis, keys, out);
  if (s.ok()) s = StreamsSection(redis, keys, out);
  if (s.ok()) s = CountersSection(redis, keys, out);
  if (!s.ok()) return s.error_value();
  if (closures) ClosuresSection(*closures, redis_log, out);
  return out.str();
}

}  // namespace veletas::cluster
