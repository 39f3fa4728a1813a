// A small synchronous Redis client over hiredis (Debian's libhiredis 0.14, RESP2, no TLS:
// docs/CLUSTER.md shows how to tunnel). RAII connection, connect and command timeouts,
// binary-safe arguments, reconnection on the next call after an I/O error, pipelining.
// Credentials (a Redis ACL user and password) come from a file or the environment, never
// from the command line or the URL.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "util/redis_url.h"
#include "util/result.h"

struct redisContext;  // hiredis

namespace veletas::cluster {

// A Redis ACL user and its password; both empty: no authentication.
struct RedisAuth {
  std::string user;  // empty with a password: the "default" user
  std::string password;
  bool Empty() const { return password.empty(); }
};

// The credentials to use: from `file` when it is not empty, else from the file named by the
// environment variable VELETAS_REDIS_AUTH_FILE, else from VELETAS_REDIS_USER and
// VELETAS_REDIS_PASSWORD, else none. A file holds one line "USER PASSWORD" (or just
// "PASSWORD" for the default user). Errors (bad input) name the file.
util::Result<RedisAuth> LoadRedisAuth(const std::string& file);

// The error reply of a server at its `maxclients` (it closes the connection after it).
inline constexpr char kMaxClientsReply[] = "ERR max number of clients reached";

// One reply (RESP2).
struct RedisValue {
  enum class Type { kNil, kString, kInteger, kArray, kStatus, kError };
  Type type = Type::kNil;
  std::string str;  // kString, kStatus, kError
  // kString longer than RedisOptions::max_string_bytes: its length; `str` is then empty
  // (the bytes were never copied).
  size_t oversized = 0;
  long long integer = 0;
  std::vector<RedisValue> elements;  // kArray

  bool IsNil() const { return type == Type::kNil; }
  bool IsError() const { return type == Type::kError; }
  bool IsString() const { return type == Type::kString || type == Type::kStatus; }
  bool IsArray() const { return type == Type::kArray; }
  bool IsInteger() const { return type == Type::kInteger; }
};

struct RedisOptions {
  util::RedisEndpoint endpoint;
  RedisAuth auth;
  double connect_timeout_seconds = 5;
  // Longer than any BLOCK a caller uses.
  double command_timeout_seconds = 30;
  std::string client_name;  // CLIENT SETNAME, shown by CLIENT LIST; "" = none
  // Strings of replies longer than this are not copied (RedisValue::oversized); 0 = no limit.
  size_t max_string_bytes = 0;
  // CLIENT NO-EVICT on for each connection: never closed by the server's `maxmemory-clients`
  // (the learner's; a user that may not is connected all the same).
  bool no_evict = false;
};

// Options for the server at `url` (util::ParseRedisUrl) with the credentials of LoadRedisAuth
// (`auth_file`, "" = the environment's), naming the connection `client_name`. Errors (bad
// input) name the URL or the file.
util::Result<RedisOptions> MakeRedisOptions(const std::string& url, const std::string& auth_file,
                                            const std::string& client_name);

// Not thread-safe: one thread uses a client at a time (give each thread its own).
class RedisClient {
 public:
  explicit RedisClient(RedisOptions options);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Connects and authenticates unless connected. A server that cannot be reached, is at its
  // connection limit or refuses the login for any other reason than the credentials is a
  // failure; refused credentials (WRONGPASS) are bad input. Both name the server.
  util::Status Connect();
  // Drops the connection (the next call connects again).
  void Disconnect();
  bool Connected() const { return context_ != nullptr; }
  // How many connections were made so far: it changes when the client reconnected, e.g. after
  // the server restarted.
  uint64_t Connections() const { return connections_; }
  const RedisOptions& Options() const { return options_; }

  // Sends one command and returns its reply; an error reply (e.g. NOPERM) is a value of type
  // kError. Connects first when needed. An I/O error, a timeout, a server still loading its
  // data ("LOADING", after a restart) or at its connection limit (kMaxClientsReply) drops the
  // connection and is a failure naming the server.
  util::Result<RedisValue> Command(const std::vector<std::string_view>& args);
  util::Result<RedisValue> Command(std::initializer_list<std::string_view> args) {
    return Command(std::vector<std::string_view>(args));
  }
  // As Command, but an error reply is a failure too ("SET: NOPERM ...").
  util::Result<RedisValue> Call(const std::vector<std::string_view>& args);
  util::Result<RedisValue> Call(std::initializer_list<std::string_view> args) {
    return Call(std::vector<std::string_view>(args));
  }
  // Several commands in one round trip; their replies in order (error replies as values,
  // except LOADING, as in Command).
  util::Result<std::vector<RedisValue>> Pipeline(
      const std::vector<std::vector<std::string>>& commands);

 private:
  util::Error IoError(const std::string& what);

  RedisOptions options_;
  redisContext* context_ = nullptr;
  uint64_t connections_ = 0;
};

}  // namespace veletas::cluster
