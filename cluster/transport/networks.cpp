#include "cluster/transport/networks.h"

#include <cstdlib>
#include <vector>

#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "util/sha256.h"

namespace veletas::cluster {

bool IsNetworkId(std::string_view id) {
  if (id.size() != 64) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

util::Result<std::string> PublishNetwork(RedisClient& redis, const RunKeys& keys,
                                         std::string_view checkpoint, long long generation,
                                         bool current) {
  const std::string id = util::Sha256Hex(checkpoint);
  const std::string key = keys.Model(id);
  auto stored = HashGet(redis, keys.Models(), id);
  if (!stored) return stored.error_value();
  if (!stored.value()) {
    std::vector<std::string> chunks;
    for (size_t at = 0; at < checkpoint.size(); at += kModelChunkBytes) {
      chunks.emplace_back(checkpoint.substr(at, kModelChunkBytes));
    }
    if (checkpoint.empty()) chunks.emplace_back();
    // All or nothing: a reader never sees half a network under its id.
    RedisBatch batch;
    batch.Multi()
        .DeleteKey(key)
        .ListAppend(key, std::move(chunks))
        .HashSet(keys.Models(), {{id, std::to_string(generation)}})
        .Exec();
    auto replies = batch.Send(redis);
    if (!replies) return replies.error_value();
    for (const RedisValue& r : replies.value()) {
      if (r.IsError())
        return util::Result<std::string>::Failure("redis: publishing " + id + ": " + r.str);
    }
  }
  if (current) {
    if (util::Status s = HashSet(redis, keys.Current(),
                                 {{"id", id}, {"generation", std::to_string(generation)}});
        !s.ok()) {
      return s.error_value();
    }
  }
  return id;
}

util::Result<std::string> FetchNetwork(RedisClient& redis, const RunKeys& keys,
                                       const std::string& id, int64_t max_bytes) {
  using R = util::Result<std::string>;
  if (!IsNetworkId(id)) return R::Error("network \"" + id.substr(0, 80) + "\": not a network id");
  const std::string key = keys.Model(id);
  auto length = ListLength(redis, key);
  if (!length) return length.error_value();
  if (length.value() <= 0) return R::Error("network " + id + ": not in Redis");
  if (length.value() > max_bytes / static_cast<int64_t>(kModelChunkBytes) + 1) {
    return R::Error("network " + id + ": larger than the limit of " + std::to_string(max_bytes) +
                    " bytes");
  }
  // Chunk by chunk: no reply is longer than one chunk, so each fits the output buffer limit
  // that `veletas cluster setup` gives every connection (redis_setup.h).
  std::string bytes;
  for (long long i = 0; i < length.value(); ++i) {
    auto chunk = ListRange(redis, key, i, i);
    if (!chunk) return chunk.error_value();
    for (const std::string& c : chunk.value()) bytes += c;
  }
  if (util::Sha256Hex(bytes) != id) {
    return R::Error("network " + id + ": the stored bytes do not match their SHA-256");
  }
  return bytes;
}

util::Result<std::optional<CurrentNetwork>> ReadCurrent(RedisClient& redis, const RunKeys& keys) {
  auto reply = HashGetFields(redis, keys.Current(), {"id", "generation"});
  if (!reply) return reply.error_value();
  const std::vector<std::optional<std::string>>& v = reply.value();
  if (!v[0]) return std::optional<CurrentNetwork>();
  CurrentNetwork c;
  c.id = *v[0];
  c.generation = std::atoll(v[1].value_or("").c_str());
  if (!IsNetworkId(c.id)) {
    return util::Result<std::optional<CurrentNetwork>>::Error(
        "the run's current network \"" + c.id.substr(0, 80) + "\" is not a network id");
  }
  return std::optional<CurrentNetwork>(c);
}

}  // namespace veletas::cluster
