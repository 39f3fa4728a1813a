// The Redis commands the cluster sends, other than the stream commands (streams.h), each a
// named function that sends exactly one command and parses its reply: strings, keys, hashes,
// sets, lists, scripts and the admin commands (ACL, CONFIG, INFO). Outside cluster/transport/
// nothing builds a command's argument vector: the hostile-worker protections (the ACL rules
// of redis_setup.h) depend on the exact commands sent, so they are written once, here.
//
// Every function fails as RedisClient::Call does: an I/O error (which drops the connection)
// or an error reply of the server ("redis HOST:PORT: SET: NOPERM ..."). Refused() tells the
// two apart where a caller treats them differently.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cluster/transport/redis_client.h"
#include "util/result.h"

namespace veletas::cluster {

// Field/value pairs (of a hash or a stream entry), in the order they are sent.
using RedisFields = std::vector<std::pair<std::string, std::string>>;

// True when `result` failed because the server answered with an error reply (NOGROUP,
// WRONGTYPE, NOPERM ...) rather than because the connection was lost: the client drops the
// connection on every I/O error, so a refused command leaves it connected.
template <class T>
bool Refused(const RedisClient& redis, const util::Result<T>& result) {
  return !result.ok() && redis.Connected();
}

// True when `error` (of a command sent on `redis`) says that Redis cannot take the command
// now but may later: the connection is lost, or the server refused it for want of
// resources: full (OOM, past `maxmemory`), at its connection limit, still loading its data,
// busy with a script, or unable to persist (MISCONF). Callers keep what they would have
// written (a worker its spool) and try again with backoff; RedisTrouble says why.
bool Unavailable(const RedisClient& redis, const util::Error& error);
// What Unavailable found, in a few words for logs ("Redis is full (OOM)", "Redis is at its
// connection limit", "Redis is unreachable"), "" for any other error.
std::string RedisTrouble(const RedisClient& redis, const util::Error& error);

// Calls f(name, value) for each name/value pair of a flat array reply (an XINFO group, an
// ACL LOG entry).
template <class F>
void ForEachField(const RedisValue& reply, F f) {
  for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
    f(reply.elements[i].str, reply.elements[i + 1]);
  }
}

// PING.
util::Status Ping(RedisClient& redis);

// GET key: its value, nullopt when the key does not exist.
util::Result<std::optional<std::string>> GetValue(RedisClient& redis, const std::string& key);
// SET key value (no expiry).
util::Status SetValue(RedisClient& redis, const std::string& key, const std::string& value);
// SET key value PX ttl_ms: the key expires after `ttl_ms` milliseconds.
util::Status SetValueWithTtl(RedisClient& redis, const std::string& key, const std::string& value,
                             long long ttl_ms);
// SET key value NX (and PX ttl_ms when `ttl_ms` > 0): true when the key was set, false when it
// existed (and was left as it was).
util::Result<bool> SetValueIfAbsent(RedisClient& redis, const std::string& key,
                                    const std::string& value, long long ttl_ms = 0);
// EXISTS key.
util::Result<bool> KeyExists(RedisClient& redis, const std::string& key);
// DEL keys... (one command): the number of keys deleted. Precondition: `keys` is not empty.
util::Result<long long> DeleteKeys(RedisClient& redis, const std::vector<std::string>& keys);
// TYPE key: "string", "stream", ..., "none" when it does not exist.
util::Result<std::string> KeyType(RedisClient& redis, const std::string& key);
// RENAME from to (fails when `from` does not exist).
util::Status RenameKey(RedisClient& redis, const std::string& from, const std::string& to);

// HSET key field value ...: sets the fields of the hash (made when missing).
util::Status HashSet(RedisClient& redis, const std::string& key, const RedisFields& fields);
// HGET key field: nullopt when the hash or the field does not exist.
util::Result<std::optional<std::string>> HashGet(RedisClient& redis, const std::string& key,
                                                 const std::string& field);
// The values of an HMGET reply for `count` fields, in order: nullopt for each that does not
// exist, and for all of them when the reply holds no array (an error such as WRONGTYPE).
std::vector<std::optional<std::string>> HashFieldValues(const RedisValue& reply, size_t count);
// HMGET key fields...: one value per field in order, nullopt for each that does not exist.
util::Result<std::vector<std::optional<std::string>>> HashGetFields(
    RedisClient& redis, const std::string& key, const std::vector<std::string>& fields);
// HGETALL key: the hash's fields (empty when it does not exist).
util::Result<std::map<std::string, std::string>> HashGetAll(RedisClient& redis,
                                                            const std::string& key);
// HKEYS key: the hash's field names, in the server's order.
util::Result<std::vector<std::string>> HashKeys(RedisClient& redis, const std::string& key);
// HINCRBY key field by: the field's new value.
util::Result<long long> HashIncrBy(RedisClient& redis, const std::string& key,
                                   const std::string& field, long long by);

// SADD key member.
util::Status SetAddMember(RedisClient& redis, const std::string& key, const std::string& member);
// SREM key member.
util::Status SetRemoveMember(RedisClient& redis, const std::string& key, const std::string& member);
// SMEMBERS key: the set's members, in the server's order (empty when it does not exist).
util::Result<std::vector<std::string>> SetMembers(RedisClient& redis, const std::string& key);

// LLEN key.
util::Result<long long> ListLength(RedisClient& redis, const std::string& key);
// LRANGE key start stop: the elements from `start` to `stop` (inclusive; -1 the last).
util::Result<std::vector<std::string>> ListRange(RedisClient& redis, const std::string& key,
                                                 long long start, long long stop);

// EVAL script numkeys keys... args...: the script's integer reply (0 for any other reply).
util::Result<long long> RunScript(RedisClient& redis, const std::string& script,
                                  const std::vector<std::string>& keys,
                                  const std::vector<std::string>& args);

// ACL SETUSER user rules...: creates or changes `user` by `rules` (ACL rule words, applied
// in order; "reset" first starts from nothing).
util::Status AclSetUser(RedisClient& redis, const std::string& user,
                        const std::vector<std::string>& rules);
// ACL DELUSER user: deletes `user` and closes its connections.
util::Status AclDeleteUser(RedisClient& redis, const std::string& user);

// One ACL LOG entry: a refused command or login.
struct AclLogEntry {
  std::string username;
  std::string reason;   // "command", "key", "auth", ...
  std::string object;   // the command, key or channel refused
  long long count = 1;  // how many times (1 when the reply has no count)
  // The user the connection was logged in as ("user=" of the entry's client-info): for a
  // refused command the same as `username`; for a failed login ("auth") the user of the
  // connection that tried it ("default" when it had not logged in), while `username` is
  // only the name it tried.
  std::string client_user;
};
// ACL LOG count: the newest `count` entries, newest first.
util::Result<std::vector<AclLogEntry>> AclLog(RedisClient& redis, int count);
// ACL LOG count and ACL LOG RESET in one transaction (MULTI/EXEC): the newest `count`
// entries, newest first, and the log emptied, with no entry lost between the two.
util::Result<std::vector<AclLogEntry>> DrainAclLog(RedisClient& redis, int count);

// One connection of CLIENT LIST.
struct ClientInfo {
  long long id = 0;
  std::string user;    // the ACL user it is logged in as ("default" before it logs in)
  std::string name;    // CLIENT SETNAME's, "" when none
  std::string addr;    // "IP:PORT"
  long long omem = 0;  // bytes of replies it has not read yet
};
// One connection's fields as CLIENT LIST (and Redis's log, when it closes one) writes them:
// "id=5 addr=... user=... omem=..." (absent fields left empty or 0).
ClientInfo ParseClientInfo(const std::string& line);
// CLIENT LIST TYPE normal: every connection of a client (not replicas or subscribers).
// Fails when the reply was too long for the client's RedisOptions::max_string_bytes.
util::Result<std::vector<ClientInfo>> ClientList(RedisClient& redis);
// CLIENT KILL USER user: closes every connection logged in as `user`; how many.
util::Result<long long> KillUserClients(RedisClient& redis, const std::string& user);

// CONFIG GET name: the setting's value, nullopt when the server has no such setting.
util::Result<std::optional<std::string>> ConfigGet(RedisClient& redis, const std::string& name);
// CONFIG SET name value.
util::Status ConfigSet(RedisClient& redis, const std::string& name, const std::string& value);

// INFO section: its "field:value" lines as a map (comment lines left out).
util::Result<std::map<std::string, std::string>> ServerInfo(RedisClient& redis,
                                                            const std::string& section);

}  // namespace veletas::cluster
