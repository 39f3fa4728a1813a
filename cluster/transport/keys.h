// The Redis keys of one run: every key starts with "vz:<run>:" (docs/CLUSTER.md lists them,
// with the ACL a worker needs). Plain functions of the run name.
#pragma once

#include <string>
#include <string_view>

#include "config/cluster_settings.h"
#include "util/result.h"

namespace veletas::cluster {

// The consumer group (and its one consumer) with which the learner reads the result streams.
inline constexpr char kLearnerGroup[] = "learner";
inline constexpr char kLearnerConsumer[] = "learner";

// Longest run name or worker id (they become parts of Redis keys): checked with
// util::ValidateName(name, what, kMaxNameLength).
inline constexpr size_t kMaxNameLength = config::kMaxClusterNameLength;

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
  // Set: the names of the run's workers. Each has a Redis ACL user of its own (WorkerUser)
  // that may add entries only to its own result streams (`veletas cluster add-worker`).
  std::string Workers() const { return prefix + "workers"; }
  // Streams (group "learner") of worker `name`'s finished self-play and arena games: the
  // sender of an entry is the owner of the stream it is in.
  std::string WorkerSelfplay(const std::string& name) const { return prefix + "results:" + name; }
  std::string WorkerArena(const std::string& name) const { return prefix + "arena:" + name; }
  // String: the id below which every entry of the worker stream `stream` (WorkerSelfplay or
  // WorkerArena) has been stored or judged by the learner (set when it trims the stream).
  // The worker deletes a spooled game only once its entry is below it. Precondition:
  // `stream` starts with `prefix`.
  std::string Stored(const std::string& stream) const {
    return prefix + "stored:" + stream.substr(prefix.size());
  }
  // Where a stream that was not a stream (WRONGTYPE) is moved before it is made again.
  std::string Broken(const std::string& name) const { return prefix + "broken:" + name; }
  // Stream: the entries the learner rejected (worker, entry id, reason; capped in length).
  std::string Dead() const { return prefix + "dead"; }
  // String: set by the learner when it starts; a Redis that no longer has it restarted
  // without its data (the learner then registers its workers again and republishes).
  std::string Epoch() const { return prefix + "epoch"; }
  // String with a TTL: the self-play games queued in all workers' streams (the learner's
  // count, for the workers' backpressure).
  std::string Queued() const { return prefix + "queued"; }
  // The Redis ACL user of worker `name` ("vz:<run>:<name>": a worker name has no ':', so
  // the worker's name is what follows the prefix).
  std::string WorkerUser(const std::string& name) const { return prefix + name; }
  // Hash {id, t, since}: the arena task the learner handed to worker `name`
  // (cluster/transport/task_handout.h), written by the learner alone, read by that worker.
  std::string Task(const std::string& name) const { return prefix + "task:" + name; }
  // String with a TTL: a worker's heartbeat (JSON).
  std::string Worker(const std::string& id) const { return prefix + "worker:" + id; }
  // String with a TTL: the learner's lock and status (JSON).
  std::string Learner() const { return prefix + "learner"; }
  // Hash: the learner's counters (accepted, duplicate, stale, rejected, rejected:<reason>,
  // rejected-by:<worker>).
  std::string Stats() const { return prefix + "stats"; }
  // Hash worker -> reason: the workers the learner quarantined (a failed spot check); their
  // games are refused.
  std::string Quarantined() const { return prefix + "quarantined"; }
  // List: the latest rejected entries, newest first (at most 200).
  std::string Rejections() const { return prefix + "rejections"; }
};

}  // namespace veletas::cluster
