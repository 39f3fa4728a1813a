#include "util/redis_url.h"

#include <cctype>

namespace veletas::util {

std::string RedisEndpoint::ToString() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

Result<RedisEndpoint> ParseRedisUrl(std::string_view url) {
  using R = Result<RedisEndpoint>;
  const std::string expected = "expected redis://HOST[:PORT]";
  const std::string_view scheme = "redis://";
  if (url.substr(0, scheme.size()) != scheme) {
    if (url.substr(0, 9) == "rediss://") {
      return R::Error("\"" + std::string(url) +
                      "\": TLS (rediss://) is not supported by this build's hiredis; tunnel it "
                      "(docs/CLUSTER.md) and use redis://");
    }
    return R::Error("\"" + std::string(url) + "\": " + expected);
  }
  std::string_view rest = url.substr(scheme.size());
  if (rest.find('@') != std::string_view::npos) {
    return R::Error(
        "\"redis://...@...\": credentials do not go into the URL (it shows in process "
        "lists); put them in a file (--redis-auth FILE or VELETAS_REDIS_AUTH_FILE) or "
        "VELETAS_REDIS_USER / VELETAS_REDIS_PASSWORD");
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find_first_of("/?#") != std::string_view::npos) {
    return R::Error("\"" + std::string(url) + "\": no path or options allowed; " + expected);
  }
  RedisEndpoint e;
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const size_t close = rest.find(']');
    if (close == std::string_view::npos)
      return R::Error("\"" + std::string(url) + "\": " + expected);
    e.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return R::Error("\"" + std::string(url) + "\": " + expected);
      port = rest.substr(1);
    }
  } else {
    const size_t colon = rest.rfind(':');
    e.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port = rest.substr(colon + 1);
    if (colon != std::string_view::npos && port.empty()) {
      return R::Error("\"" + std::string(url) + "\": " + expected);
    }
  }
  if (e.host.empty()) return R::Error("\"" + std::string(url) + "\": no host; " + expected);
  if (!port.empty()) {
    int p = 0;
    for (char c : port) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || p > 65535) {
        return R::Error("\"" + std::string(url) + "\": bad port; " + expected);
      }
      p = p * 10 + (c - '0');
    }
    if (p < 1 || p > 65535)
      return R::Error("\"" + std::string(url) + "\": port must be in [1, 65535]");
    e.port = p;
  }
  return e;
}

}  // namespace veletas::util
