// The worker's spool thread (internal to cluster/worker*.cpp).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "cluster/transport/entry.h"
#include "cluster/worker/outbox.h"
#include "util/result.h"

namespace veletas::cluster {

// Writes self-play games into the spool on a thread of its own, so that a search thread
// (and the games in flight it batches) never waits for the disk. A game waits in memory for
// milliseconds; a kill then loses it as it loses the games in flight: nothing acknowledged.
class SpoolWriter {
 public:
  explicit SpoolWriter(Outbox& outbox) : outbox_(outbox), thread_([this] { Loop(); }) {}
  ~SpoolWriter() { Close(); }

  // Queues `entry` for the spool.
  void Add(EntryKind kind, std::string entry);

  // The first write error so far (the writer stops writing at it).
  util::Status status();

  // Writes what is queued, stops the thread and returns status().
  util::Status Close();

 private:
  void Loop();

  Outbox& outbox_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::pair<EntryKind, std::string>> queue_;
  bool closing_ = false;
  util::Status status_ = util::Ok();
  std::thread thread_;  // last: starts once the rest is built
};

}  // namespace veletas::cluster
