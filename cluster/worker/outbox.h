// A worker's spool of finished games (DIR/outbox): every finished game is written there
// (atomically, flushed to the device) before it is sent, and stays until it cannot be lost:
// the learner has stored or judged its entry (the entry's id is below the stream's
// RunKeys::Stored mark, read on the connection that added it). A lost connection (the server
// died or restarted, with or without its data) sends every unconfirmed game again after
// reconnecting, so a game is lost neither by a killed worker, nor by a killed, restarted or
// emptied Redis, nor by a power cut of the Redis machine. The learner stores a game (by its
// content) once, so a game sent twice costs only the bytes.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "cluster/transport/entry.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

class Outbox {
 public:
  // Opens (creates) `dir`; every entry found there is taken as not yet sent (a restarted
  // worker sends its spool first). Errors name the directory.
  static util::Result<std::unique_ptr<Outbox>> Open(const std::string& dir);

  // Writes an entry to be sent to the stream of `kind`; returns its file name (names sort in
  // the order written). Thread-safe. The error (a failure) names the file.
  util::Result<std::string> Put(EntryKind kind, std::string_view entry);

  // Sends what waits, oldest first, in pipelined batches, while the connection holds; removes
  // the files confirmed as above (a user that may not read the Stored marks is bad input:
  // the message says to remove and add the worker again); takes back for sending the files
  // sent on an earlier connection. Returns how many were sent now, or the connection's error (the
  // rest waits); bad input (a worker stops with exit 2) when a stream has used up its ids (someone
  // with the worker's credentials added the largest possible id): the message says what to do. Call
  // from one thread.
  util::Result<int> Flush(RedisClient& redis, const RunKeys& keys, const std::string& worker);

  // Whether the file `name` (from Put) has been added to its stream.
  bool Sent(const std::string& name) const;
  size_t Waiting() const;      // not yet sent
  size_t Unconfirmed() const;  // sent, kept until confirmed
  const std::string& Dir() const { return dir_; }

 private:
  struct SentEntry {
    std::string name;
    std::string stream;
    std::string id;  // the entry's id in `stream`
    uint64_t connection = 0;
  };
  explicit Outbox(std::string dir) : dir_(std::move(dir)) {}
  // Removes the files whose entries are below their stream's Stored mark in `marks` (stream ->
  // mark, read on connection `connection`); takes back for sending those sent on an earlier
  // connection. Called with mutex_ held.
  void Confirm(const std::map<std::string, std::string>& marks, uint64_t connection);

  const std::string dir_;
  mutable std::mutex mutex_;
  std::set<std::string> waiting_;  // file names, in order
  std::deque<SentEntry> sent_;     // in the order sent
  uint64_t last_stamp_ = 0;
};

}  // namespace veletas::cluster
