// Redis Streams with consumer groups, as the cluster uses them: entries are added with XADD,
// read by one group's consumers (XREADGROUP, XAUTOCLAIM for entries whose consumer went
// quiet), acknowledged with XACK once their effect is durable, and trimmed with XTRIM MINID
// below the oldest entry still pending or undelivered (never MAXLEN, which would drop
// unacknowledged entries). Each stream command is a function here that sends it and parses
// its reply (pipelined ones: redis_batch.h); they fail as RedisClient::Call does.
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

// XLEN key: the number of entries (0 when the stream does not exist).
util::Result<long long> StreamLength(RedisClient& redis, const std::string& key);

// XRANGE key start end [COUNT count]: the entries with ids from `start` to `end` ("-" and
// "+": the first and the last; "(id": after id), all of them when `count` is 0.
util::Result<std::vector<StreamEntry>> RangeEntries(RedisClient& redis, const std::string& key,
                                                    const std::string& start,
                                                    const std::string& end, int count = 0);

// XDEL key ids...: the number of entries deleted (none given: nothing sent, 0).
util::Result<long long> DeleteEntries(RedisClient& redis, const std::string& key,
                                      const std::vector<std::string>& ids);

// XTRIM key MINID min_id: removes the entries below `min_id`; the number removed.
util::Result<long long> TrimBelow(RedisClient& redis, const std::string& key,
                                  const std::string& min_id);

// XREADGROUP: up to `count` entries of `key` new to the group (`pending` false; waits up to
// `block_ms` when > 0) or, with `pending`, those delivered to `consumer` and not acknowledged
// whose ids follow `after`.
util::Result<std::vector<StreamEntry>> ReadGroup(RedisClient& redis, const std::string& key,
                                                 const std::string& group,
                                                 const std::string& consumer, int count,
                                                 int block_ms, bool pending,
                                                 const std::string& after = "0");

// XREADGROUP GROUP group consumer COUNT count [BLOCK block_ms] STREAMS keys... > ...: up to
// `count` entries new to the group from each of `keys` (waits up to `block_ms` when > 0), each
// with its `stream` set, in the order of the reply.
util::Result<std::vector<StreamEntry>> ReadGroupStreams(RedisClient& redis,
                                                        const std::string& group,
                                                        const std::string& consumer, int count,
                                                        int block_ms,
                                                        const std::vector<std::string>& keys);

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

// One consumer group of a stream (XINFO GROUPS).
struct GroupInfo {
  std::string name;
  std::string last_delivered;  // the id of the last entry delivered to a consumer
  long long pending = 0;       // delivered and not acknowledged
  long long lag = 0;           // not yet delivered (0 when the server cannot tell)
};
// XINFO GROUPS key: the stream's groups (a failure when the stream does not exist).
util::Result<std::vector<GroupInfo>> StreamGroups(RedisClient& redis, const std::string& key);

// XPENDING key group: the group's entries delivered and not acknowledged, in summary.
struct PendingSummary {
  long long count = 0;
  std::string min_id, max_id;  // the oldest and newest of them ("" when none)
  std::vector<std::pair<std::string, long long>> consumers;  // consumer -> how many
};
util::Result<PendingSummary> Pending(RedisClient& redis, const std::string& key,
                                     const std::string& group);

// One entry of XPENDING's extended form.
struct PendingEntry {
  std::string id;
  std::string consumer;      // the consumer holding it
  long long idle_ms = 0;     // since it was last delivered
  long long deliveries = 0;  // how many times it was delivered
};
// XPENDING key group start end count [consumer]: up to `count` pending entries with ids from
// `start` to `end` ("-", "+": all), of `consumer` only when it is not empty.
util::Result<std::vector<PendingEntry>> PendingEntries(RedisClient& redis, const std::string& key,
                                                       const std::string& group,
                                                       const std::string& start,
                                                       const std::string& end, long long count,
                                                       const std::string& consumer = "");

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
