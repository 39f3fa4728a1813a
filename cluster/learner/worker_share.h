// The per-worker share of one generation's self-play games
// (config::ClusterConfig::max_worker_share): how many of a generation's games one worker's games
// may fill, so that one worker alone (hostile, buggy, or just the fastest) cannot fill a generation
// while others play. Games beyond a worker's share are held back: their entries stay pending,
// unacknowledged, and are read again by the next generation's collection (every honest game is used
// exactly once; none goes to the dead letters for its share).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace veletas::cluster {

// The most games of a generation of `games` one worker may fill when `producers` workers are
// live: ceil(games x max(share, 1/producers)); `games` when producers <= 1 (a lone worker
// fills a generation alone), so the live producers can always fill it together.
// Precondition: share in (0, 1], games >= 0.
int64_t WorkerShareCap(double share, int64_t games, int producers);

// One collection's count of the games each worker filled and of the entries held back.
// Not thread-safe (the collection's ingest loop).
class WorkerShare {
 public:
  // Precondition: share in (0, 1], games >= 0 (the generation's games).
  WorkerShare(double share, int64_t games) : share_(share), games_(games) {}

  // Sets the number of live producers. True when the cap rose while entries are held back:
  // those may fit now, and the caller should read the pending entries again (then
  // ClearHeld).
  bool SetProducers(int producers);
  int64_t Cap() const { return WorkerShareCap(share_, games_, producers_); }
  // Counts one more game of `worker` toward its share when it fits (true); else counts it
  // as held back (false).
  bool Take(const std::string& worker);
  // A game counted by Take was not stored after all (a duplicate, or the generation full).
  // True when entries are held back (one may fit now: read the pending entries again).
  bool Untake(const std::string& worker);
  // Entries held back since the last ClearHeld, in all and by worker.
  int64_t Held() const { return held_; }
  const std::map<std::string, int64_t>& HeldByWorker() const { return held_by_worker_; }
  void ClearHeld();

 private:
  double share_;
  int64_t games_;
  int producers_ = 1;
  int64_t held_ = 0;
  std::map<std::string, int64_t> taken_;
  std::map<std::string, int64_t> held_by_worker_;
};

}  // namespace veletas::cluster
