// The address of a cluster's Redis server: "redis://HOST[:PORT]" parsed into host and port.
// Without hiredis, so that the cluster's settings (config/cluster_settings.h) are checked
// without the client (cluster/transport/redis_client.h connects to it).
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::util {

struct RedisEndpoint {
  std::string host = "127.0.0.1";
  int port = 6379;
  // "host:port".
  std::string ToString() const;
};

// Parses "redis://HOST[:PORT]" (PORT 6379 by default; an IPv6 host in brackets). A URL that
// carries a user or password, a path or options is refused: credentials come from a file or
// the environment (cluster/transport/redis_client.h LoadRedisAuth). Errors (bad input) say what is
// expected.
Result<RedisEndpoint> ParseRedisUrl(std::string_view url);

}  // namespace veletas::util
