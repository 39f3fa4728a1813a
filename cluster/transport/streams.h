// Redis Streams with consumer groups, as the cluster uses them: entries are added with XADD,
// read by one group's consumers (XREADGROUP, XAUTOCLAIM for entries whose consumer went
// quiet), acknowledged with XACK once their effect is durable, and trimmed with XTRIM MINID
// below the oldest entry still pending or undelivered (never MAXLEN, which would drop
// unacknowledged entries).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

struct StreamEntry {
  std::string id;  // "<ms>-<seq>"
  // Set by the reader that knows them: the stream the entry is in and the worker that owns
  // that stream (the entry's sender; "" when unknown).
  std::string stream;
  std::string sender;
  // The longest field value that was too long to be copied (RedisValue::oversized); 0: none.
  size_t oversized = 0;
  // Field/value pairs; empty for an entry deleted while pending.
  std::vector<std::pair<std::string, std::string>> fields;
  // The value of `name`, or null.
  const std::string* Field(const std::string& name) const;
};

// The entries of an XRANGE reply or of one stream in an XREADGROUP / XAUTOCLAIM reply.
std::vector<StreamEntry> ParseEntries(const RedisValue& entries);

// Creates `group` on stream `key` (and the stream) reading from the start, unless it exists.
util::Status EnsureGroup(RedisClient& redis, const std::string& key, const std::string& group);

// XADD key * field value ...: the new entry's id.
util::Result<std::string> AddEntry(RedisClient& redis, const std::string& key,
                                   const std::vector<std::pair<std::string, std::string>>& fields);

// XREADGROUP: up to `count` entries of `key` new to the group (`pending` false; waits up to
// `block_ms` when > 0) or, with `pending`, those delivered to `consumer` and not acknowledged
// whose ids follow `after`.
util::Result<std::vector<StreamEntry>> ReadGroup(RedisClient& redis, const std::string& key,
                                                 const std::string& group,
                                                 const std::string& consumer, int count,
                                                 int block_ms, bool pending,
                                                 const std::string& after = "0");

// XAUTOCLAIM from `start`: up to `count` entries pending for at least `min_idle_ms` with any
// consumer, now delivered to `consumer`. `next` is where the scan continues ("0-0": done).
struct Claimed {
  std::string next = "0-0";
  std::vector<StreamEntry> entries;
};
util::Result<Claimed> AutoClaim(RedisClient& redis, const std::string& key,
                                const std::string& group, const std::string& consumer,
                                long long min_idle_ms, const std::string& start, int count);

// XACK of `ids` (none: nothing sent).
util::Status Ack(RedisClient& redis, const std::string& key, const std::string& group,
                 const std::vector<std::string>& ids);

// The oldest id of `key` that `group` has pending or not yet delivered: every entry below
// it has been acknowledged. Empty when the group has delivered nothing (or does not exist).
util::Result<std::string> AcknowledgedBelow(RedisClient& redis, const std::string& key,
                                            const std::string& group);

// Trims `key` below AcknowledgedBelow (XTRIM MINID). Returns the number of entries removed.
util::Result<long long> TrimAcknowledged(RedisClient& redis, const std::string& key,
                                         const std::string& group);

// The id just after `id` ("5-3" -> "5-4"); `id` unchanged when it does not parse.
std::string NextStreamId(const std::string& id);
// True when stream id `a` sorts before `b`.
bool StreamIdLess(const std::string& a, const std::string& b);

}  // namespace veletas::cluster
