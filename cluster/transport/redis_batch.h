// Several Redis commands sent in one round trip (RedisClient::Pipeline), built by named
// methods instead of argument vectors: the commands the cluster pipelines, with the same
// arguments as their single-command forms in redis_commands.h and streams.h.
#pragma once

#include <string>
#include <vector>

#include "cluster/transport/redis_client.h"
#include "cluster/transport/redis_commands.h"
#include "util/result.h"

namespace veletas::cluster {

class RedisBatch {
 public:
  // PING.
  RedisBatch& Ping();
  // GET key.
  RedisBatch& GetValue(const std::string& key);
  // SET key value.
  RedisBatch& SetValue(const std::string& key, const std::string& value);
  // EXISTS key.
  RedisBatch& KeyExists(const std::string& key);
  // DEL key.
  RedisBatch& DeleteKey(const std::string& key);
  // HSET key field value ...
  RedisBatch& HashSet(const std::string& key, const RedisFields& fields);
  // HMGET key fields...
  RedisBatch& HashGetFields(const std::string& key, const std::vector<std::string>& fields);
  // HINCRBY key field by.
  RedisBatch& HashIncrBy(const std::string& key, const std::string& field, long long by);
  // LPUSH key value.
  RedisBatch& ListPush(const std::string& key, const std::string& value);
  // RPUSH key values... Precondition: `values` is not empty.
  RedisBatch& ListAppend(const std::string& key, std::vector<std::string> values);
  // LTRIM key start stop.
  RedisBatch& ListTrim(const std::string& key, long long start, long long stop);
  // XADD key * field value ... (the fields moved in: entries are large).
  RedisBatch& StreamAdd(const std::string& key, RedisFields fields);
  // XADD key MAXLEN ~ max_length * field value ...: the oldest entries go once the stream is
  // about `max_length` long.
  RedisBatch& StreamAddCapped(const std::string& key, long long max_length, RedisFields fields);
  // XACK key group ids... Precondition: `ids` is not empty.
  RedisBatch& StreamAck(const std::string& key, const std::string& group,
                        const std::vector<std::string>& ids);
  // XLEN key.
  RedisBatch& StreamLength(const std::string& key);
  // XTRIM key MINID min_id: removes the entries below `min_id`.
  RedisBatch& StreamTrimBelow(const std::string& key, const std::string& min_id);
  // MULTI and EXEC: the commands between them run as one transaction.
  RedisBatch& Multi();
  RedisBatch& Exec();

  // The number of commands added.
  size_t Size() const { return commands_.size(); }
  bool Empty() const { return commands_.empty(); }

  // Sends the commands in one round trip: one reply per command, in order, an error reply
  // as a value (RedisValue::IsError). Fails as RedisClient::Pipeline does (I/O errors).
  util::Result<std::vector<RedisValue>> Send(RedisClient& redis) const;

 private:
  std::vector<std::vector<std::string>> commands_;
};

}  // namespace veletas::cluster
