// The Redis keys of one run: every key starts with "vz:<run>:" (docs/CLUSTER.md lists them,
// with the ACL a worker needs). Plain functions of the run name.
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::cluster {

// Consumer groups: the learner reads the result streams, the workers read the task stream.
inline constexpr char kLearnerGroup[] = "learner";
inline constexpr char kLearnerConsumer[] = "learner";
inline constexpr char kWorkerGroup[] = "workers";

// Longest run name or worker id (they become parts of Redis keys): checked with
// util::ValidateName(name, what, kMaxNameLength).
inline constexpr size_t kMaxNameLength = 64;

struct RunKeys {
  // Precondition: util::ValidateName(run, "run", kMaxNameLength) is ok.
  explicit RunKeys(const std::string& run) : prefix("vz:" + run + ":") {}
  std::string prefix;

  // String: the run's config (the learner's config.resolved.yaml) for the workers.
  std::string Config() const { return prefix + "config"; }
  // Hash {id, generation}: the network self-play uses now.
  std::string Current() const { return prefix + "current"; }
  // Hash network id -> generation: every network published (self-play and arena).
  std::string Models() const { return prefix + "models"; }
  // List: the checkpoint bytes of network `id` in chunks of at most 1 MiB.
  std::string Model(const std::string& id) const { return prefix + "model:" + id; }
  // Streams of finished games (group "learner") and of arena tasks (group "workers").
  std::string SelfplayResults() const { return prefix + "results:selfplay"; }
  std::string ArenaResults() const { return prefix + "results:arena"; }
  std::string Tasks() const { return prefix + "tasks"; }
  // String with a TTL: a worker's heartbeat (JSON).
  std::string Worker(const std::string& id) const { return prefix + "worker:" + id; }
  std::string WorkerPattern() const { return prefix + "worker:*"; }
  // String with a TTL: the learner's lock and status (JSON).
  std::string Learner() const { return prefix + "learner"; }
  // Hash: the learner's counters (accepted, duplicate, stale, rejected, rejected:<reason>).
  std::string Stats() const { return prefix + "stats"; }
  // List: the latest rejected entries, newest first (at most 200).
  std::string Rejections() const { return prefix + "rejections"; }
};

}  // namespace veletas::cluster
