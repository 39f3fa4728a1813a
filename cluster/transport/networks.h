// Networks in Redis: content-addressed checkpoint blobs. A network's id is the SHA-256 (64
// hex digits) of its published checkpoint bytes; the bytes are stored as a list of chunks of
// at most 1 MiB (under Redis's proto-max-bulk-len) and every reader verifies them against the
// id. The run's "current" hash names the network self-play uses now.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

inline constexpr size_t kModelChunkBytes = 1 << 20;

// Stores `checkpoint` as network SHA-256(checkpoint) unless it is there, records its
// generation in the run's models hash, and with `current` makes it the self-play network.
// Returns the id.
util::Result<std::string> PublishNetwork(RedisClient& redis, const RunKeys& keys,
                                         std::string_view checkpoint, long long generation,
                                         bool current);

// The checkpoint bytes of network `id`. Bad input when the network is missing, larger than
// `max_bytes`, or its bytes do not hash to `id`.
util::Result<std::string> FetchNetwork(RedisClient& redis, const RunKeys& keys,
                                       const std::string& id, int64_t max_bytes);

struct CurrentNetwork {
  std::string id;
  long long generation = 0;
};
// The network self-play uses now; nullopt before the learner published one.
util::Result<std::optional<CurrentNetwork>> ReadCurrent(RedisClient& redis, const RunKeys& keys);

// True when `id` is 64 lower-case hex digits.
bool IsNetworkId(std::string_view id);

}  // namespace veletas::cluster
