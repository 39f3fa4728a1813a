#include "cluster/transport/redis_commands.h"

#include <cstdlib>
#include <sstream>
#include <string_view>

namespace veletas::cluster {
namespace {

// The value of a bulk-string reply, nullopt for nil.
std::optional<std::string> OptionalString(const RedisValue& v) {
  if (v.IsNil()) return std::nullopt;
  return v.str;
}

// The strings of an array reply.
std::vector<std::string> Strings(const RedisValue& v) {
  std::vector<std::string> out;
  out.reserve(v.elements.size());
  for (const RedisValue& e : v.elements) out.push_back(e.str);
  return out;
}

// Sends `args` with RedisClient::Call and keeps only whether it succeeded.
util::Status Send(RedisClient& redis, const std::vector<std::string_view>& args) {
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return util::Ok();
}

// The value of `key`=VALUE in a space-separated line of such pairs (CLIENT LIST,
// client-info); "" when absent.
std::string InfoField(const std::string& line, const std::string& key) {
  const std::string needle = key + "=";
  size_t at = line.rfind(needle, 0) == 0 ? 0 : line.find(" " + needle);
  if (at == std::string::npos) return "";
  if (at > 0) ++at;
  const size_t start = at + needle.size();
  const size_t end = line.find(' ', start);
  return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The entries of an ACL LOG reply.
std::vector<AclLogEntry> AclLogEntries(const RedisValue& reply) {
  std::vector<AclLogEntry> out;
  for (const RedisValue& entry : reply.elements) {
    AclLogEntry e;
    ForEachField(entry, [&](const std::string& name, const RedisValue& value) {
      if (name == "username") e.username = value.str;
      if (name == "reason") e.reason = value.str;
      if (name == "object") e.object = value.str;
      if (name == "count" && value.IsInteger()) e.count = value.integer;
      if (name == "client-info") e.client_user = InfoField(value.str, "user");
    });
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

std::string RedisTrouble(const RedisClient& redis, const util::Error& error) {
  const std::string& m = error.message;
  if (m.find(": OOM ") != std::string::npos) return "Redis is full (OOM, past its maxmemory)";
  if (m.find(kMaxClientsReply) != std::string::npos) {
    return "Redis is at its connection limit (maxclients)";
  }
  if (m.find(": LOADING") != std::string::npos) return "Redis is loading its data";
  if (m.find(": BUSY") != std::string::npos) return "Redis is busy (a script)";
  if (m.find(": MISCONF") != std::string::npos) return "Redis cannot persist (MISCONF)";
  if (!redis.Connected()) return "Redis is unreachable";
  return "";
}

bool Unavailable(const RedisClient& redis, const util::Error& error) {
  return !RedisTrouble(redis, error).empty();
}

util::Status Ping(RedisClient& redis) { return Send(redis, {"PING"}); }

util::Result<std::optional<std::string>> GetValue(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"GET", key});
  if (!reply) return reply.error_value();
  return OptionalString(reply.value());
}

util::Status SetValue(RedisClient& redis, const std::string& key, const std::string& value) {
  return Send(redis, {"SET", key, value});
}

util::Status SetValueWithTtl(RedisClient& redis, const std::string& key, const std::string& value,
                             long long ttl_ms) {
  return Send(redis, {"SET", key, value, "PX", std::to_string(ttl_ms)});
}

util::Result<bool> SetValueIfAbsent(RedisClient& redis, const std::string& key,
                                    const std::string& value, long long ttl_ms) {
  const std::string px = std::to_string(ttl_ms);
  std::vector<std::string_view> args{"SET", key, value, "NX"};
  if (ttl_ms > 0) {
    args.push_back("PX");
    args.push_back(px);
  }
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return !reply.value().IsNil();
}

util::Result<bool> KeyExists(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"EXISTS", key});
  if (!reply) return reply.error_value();
  return reply.value().integer > 0;
}

util::Result<long long> DeleteKeys(RedisClient& redis, const std::vector<std::string>& keys) {
  std::vector<std::string_view> args{"DEL"};
  args.insert(args.end(), keys.begin(), keys.end());
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return reply.value().integer;
}

util::Result<std::string> KeyType(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"TYPE", key});
  if (!reply) return reply.error_value();
  return reply.value().str;
}

util::Status RenameKey(RedisClient& redis, const std::string& from, const std::string& to) {
  return Send(redis, {"RENAME", from, to});
}

util::Status HashSet(RedisClient& redis, const std::string& key, const RedisFields& fields) {
  std::vector<std::string_view> args{"HSET", key};
  for (const auto& [field, value] : fields) {
    args.push_back(field);
    args.push_back(value);
  }
  return Send(redis, args);
}

util::Result<std::optional<std::string>> HashGet(RedisClient& redis, const std::string& key,
                                                 const std::string& field) {
  auto reply = redis.Call({"HGET", key, field});
  if (!reply) return reply.error_value();
  return OptionalString(reply.value());
}

util::Result<std::vector<std::optional<std::string>>> HashGetFields(
    RedisClient& redis, const std::string& key, const std::vector<std::string>& fields) {
  std::vector<std::string_view> args{"HMGET", key};
  args.insert(args.end(), fields.begin(), fields.end());
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return HashFieldValues(reply.value(), fields.size());
}

std::vector<std::optional<std::string>> HashFieldValues(const RedisValue& reply, size_t count) {
  std::vector<std::optional<std::string>> out;
  for (const RedisValue& v : reply.elements) out.push_back(OptionalString(v));
  out.resize(count);
  return out;
}

util::Result<std::map<std::string, std::string>> HashGetAll(RedisClient& redis,
                                                            const std::string& key) {
  auto reply = redis.Call({"HGETALL", key});
  if (!reply) return reply.error_value();
  const std::vector<RedisValue>& e = reply.value().elements;
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < e.size(); i += 2) out[e[i].str] = e[i + 1].str;
  return out;
}

util::Result<std::vector<std::string>> HashKeys(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"HKEYS", key});
  if (!reply) return reply.error_value();
  return Strings(reply.value());
}

util::Result<long long> HashIncrBy(RedisClient& redis, const std::string& key,
                                   const std::string& field, long long by) {
  auto reply = redis.Call({"HINCRBY", key, field, std::to_string(by)});
  if (!reply) return reply.error_value();
  return reply.value().integer;
}

util::Status SetAddMember(RedisClient& redis, const std::string& key, const std::string& member) {
  return Send(redis, {"SADD", key, member});
}

util::Status SetRemoveMember(RedisClient& redis, const std::string& key,
                             const std::string& member) {
  return Send(redis, {"SREM", key, member});
}

util::Result<std::vector<std::string>> SetMembers(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"SMEMBERS", key});
  if (!reply) return reply.error_value();
  return Strings(reply.value());
}

util::Result<long long> ListLength(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"LLEN", key});
  if (!reply) return reply.error_value();
  return reply.value().integer;
}

util::Result<std::vector<std::string>> ListRange(RedisClient& redis, const std::string& key,
                                                 long long start, long long stop) {
  auto reply = redis.Call({"LRANGE", key, std::to_string(start), std::to_string(stop)});
  if (!reply) return reply.error_value();
  return Strings(reply.value());
}

util::Result<long long> RunScript(RedisClient& redis, const std::string& script,
                                  const std::vector<std::string>& keys,
                                  const std::vector<std::string>& args) {
  const std::string numkeys = std::to_string(keys.size());
  std::vector<std::string_view> command{"EVAL", script, numkeys};
  command.insert(command.end(), keys.begin(), keys.end());
  command.insert(command.end(), args.begin(), args.end());
  auto reply = redis.Call(command);
  if (!reply) return reply.error_value();
  return reply.value().IsInteger() ? reply.value().integer : 0;
}

util::Status AclSetUser(RedisClient& redis, const std::string& user,
                        const std::vector<std::string>& rules) {
  std::vector<std::string_view> args{"ACL", "SETUSER", user};
  args.insert(args.end(), rules.begin(), rules.end());
  return Send(redis, args);
}

util::Status AclDeleteUser(RedisClient& redis, const std::string& user) {
  return Send(redis, {"ACL", "DELUSER", user});
}

util::Result<std::vector<AclLogEntry>> AclLog(RedisClient& redis, int count) {
  auto reply = redis.Call({"ACL", "LOG", std::to_string(count)});
  if (!reply) return reply.error_value();
  return AclLogEntries(reply.value());
}

util::Result<std::vector<AclLogEntry>> DrainAclLog(RedisClient& redis, int count) {
  using R = util::Result<std::vector<AclLogEntry>>;
  auto replies = redis.Pipeline(
      {{"MULTI"}, {"ACL", "LOG", std::to_string(count)}, {"ACL", "LOG", "RESET"}, {"EXEC"}});
  if (!replies) return replies.error_value();
  const RedisValue& exec = replies.value().back();
  for (const RedisValue& r : replies.value()) {
    if (r.IsError()) return R::Failure("redis: ACL LOG: " + r.str);
  }
  if (!exec.IsArray() || exec.elements.size() != 2 || exec.elements[0].IsError()) {
    return R::Failure("redis: ACL LOG: the transaction was not run");
  }
  return AclLogEntries(exec.elements[0]);
}

ClientInfo ParseClientInfo(const std::string& line) {
  ClientInfo c;
  c.id = std::atoll(InfoField(line, "id").c_str());
  c.user = InfoField(line, "user");
  c.name = InfoField(line, "name");
  c.addr = InfoField(line, "addr");
  c.omem = std::atoll(InfoField(line, "omem").c_str());
  return c;
}

util::Result<std::vector<ClientInfo>> ClientList(RedisClient& redis) {
  using R = util::Result<std::vector<ClientInfo>>;
  auto reply = redis.Call({"CLIENT", "LIST", "TYPE", "normal"});
  if (!reply) return reply.error_value();
  if (reply.value().oversized > 0) {
    return R::Failure("redis: CLIENT LIST: a reply of " + std::to_string(reply.value().oversized) +
                      " bytes, past the client's limit");
  }
  std::vector<ClientInfo> out;
  std::istringstream in(reply.value().str);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    out.push_back(ParseClientInfo(line));
  }
  return out;
}

util::Result<long long> KillUserClients(RedisClient& redis, const std::string& user) {
  auto reply = redis.Call({"CLIENT", "KILL", "USER", user});
  if (!reply) return reply.error_value();
  return reply.value().integer;
}

util::Result<std::optional<std::string>> ConfigGet(RedisClient& redis, const std::string& name) {
  auto reply = redis.Call({"CONFIG", "GET", name});
  if (!reply) return reply.error_value();
  if (reply.value().elements.size() != 2) return std::optional<std::string>();
  return std::optional<std::string>(reply.value().elements[1].str);
}

util::Status ConfigSet(RedisClient& redis, const std::string& name, const std::string& value) {
  return Send(redis, {"CONFIG", "SET", name, value});
}

util::Result<std::map<std::string, std::string>> ServerInfo(RedisClient& redis,
                                                            const std::string& section) {
  auto reply = redis.Call({"INFO", section});
  if (!reply) return reply.error_value();
  std::map<std::string, std::string> out;
  std::istringstream in(reply.value().str);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t colon = line.find(':');
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return out;
}

}  // namespace veletas::cluster
