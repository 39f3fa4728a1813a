#include "cluster/tools/status.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <vector>

#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/worker_registry.h"
#include "util/json.h"
#include "util/names.h"

namespace veletas::cluster {
namespace {

// The value of `field` in `hash`, "-" when it has none.
std::string Field(const std::map<std::string, std::string>& hash, const std::string& field) {
  const auto it = hash.find(field);
  return it == hash.end() ? "-" : it->second;
}

// The count `key` of a worker's heartbeat `j` (0 when missing or not a count).
long long Count(const nlohmann::json& j, const char* key) {
  return util::JsonValueOr<long long>(j, key, 0);
}

// The commands and logins Redis refused to the run's worker users, by worker, from its ACL
// LOG (its newest 128 kinds of refusal by default, each with a count): what a worker tried that
// its user may not do. Nothing where the status's user may not read the log.
void RefusedSection(RedisClient& redis, const RunKeys& keys, std::ostream& out) {
  auto log = AclLog(redis, 1000);  // without a count: the newest 10
  if (!log) return;
  std::map<std::string, long long> count;
  std::map<std::string, std::string> newest;  // the log lists the newest first
  for (const AclLogEntry& entry : log.value()) {
    const std::string& user = entry.username;
    if (user.rfind(keys.prefix, 0) != 0 || user.size() == keys.prefix.size()) continue;
    const std::string worker = user.substr(keys.prefix.size());
    count[worker] += entry.count;
    if (!newest.count(worker)) newest[worker] = entry.reason + " " + entry.object;
  }
  if (count.empty()) return;
  out << "refused by Redis (ACL LOG) by worker:";
  const char* sep = " ";
  for (const auto& [worker, n] : count) {
    out << sep << util::EscapedBytes(worker.substr(0, 64)) << " " << n
        << " (newest: " << util::EscapedBytes(newest[worker].substr(0, 80)) << ")";
    sep = ", ";
  }
  out << "\n";
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

// The streams, and the tasks in play by each worker.
util::Status StreamsSection(RedisClient& redis, const RunKeys& keys, std::ostream& out) {
  auto registered = RegisteredWorkers(redis, keys);
  if (!registered) return registered.error_value();
  std::vector<std::string> selfplay, arena;
  for (const std::string& w : registered.value()) {
    selfplay.push_back(keys.WorkerSelfplay(w));
    arena.push_back(keys.WorkerArena(w));
  }
  for (const auto& [title, streams, group] :
       {std::tuple<const char*, std::vector<std::string>, const char*>{"self-play results",
                                                                       selfplay, kLearnerGroup},
        {"arena results", arena, kLearnerGroup},
        {"arena tasks", {keys.Tasks()}, kWorkerGroup}}) {
    auto line = StreamLine(redis, streams, group);
    if (!line) return line.error_value();
    out << title << ": " << line.value() << "\n";
  }
  if (auto pending = Pending(redis, keys.Tasks(), kWorkerGroup)) {
    for (const auto& [consumer, n] : pending.value().consumers) {
      // The consumer name is the reader's choice: shown escaped and cut.
      out << "  tasks in play by " << util::EscapedBytes(consumer.substr(0, 64)) << ": " << n
          << "\n";
    }
  }
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
  RefusedSection(redis, keys, out);
  auto recent = ListRange(redis, keys.Rejections(), 0, 4);
  if (recent && !recent.value().empty()) {
    out << "latest rejected entries:\n";
    for (const std::string& r : recent.value()) out << "  " << r << "\n";
  }
  return util::Ok();
}

}  // namespace

util::Result<std::string> ClusterStatus(RedisClient& redis, const RunKeys& keys) {
  std::ostringstream out;
  util::Status s = ServerSection(redis, out);
  if (s.ok()) s = LearnerSection(redis, keys, out);
  if (s.ok()) s = WorkersSection(redis, keys, out);
  if (s.ok()) s = StreamsSection(redis, keys, out);
  if (s.ok()) s = CountersSection(redis, keys, out);
  if (!s.ok()) return s.error_value();
  return out.str();
}

}  // namespace veletas::cluster
