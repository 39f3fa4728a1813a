#include "cluster/transport/streams.h"

#include <algorithm>
#include <cstdlib>

namespace veletas::cluster {
namespace {

// Parses "<ms>-<seq>".
bool ParseId(const std::string& id, unsigned long long& ms, unsigned long long& seq) {
  const size_t dash = id.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 >= id.size()) return false;
  char* end = nullptr;
  ms = std::strtoull(id.c_str(), &end, 10);
  if (end != id.c_str() + dash) return false;
  seq = std::strtoull(id.c_str() + dash + 1, &end, 10);
  return *end == '\0';
}

}  // namespace

const std::string* StreamEntry::Field(const std::string& name) const {
  for (const auto& [k, v] : fields) {
    if (k == name) return &v;
  }
  return nullptr;
}

std::vector<StreamEntry> ParseEntries(const RedisValue& entries) {
  std::vector<StreamEntry> out;
  if (!entries.IsArray()) return out;
  for (const RedisValue& e : entries.elements) {
    if (!e.IsArray() || e.elements.empty() || !e.elements[0].IsString()) continue;
    StreamEntry entry;
    entry.id = e.elements[0].str;
    if (e.elements.size() > 1 && e.elements[1].IsArray()) {
      const std::vector<RedisValue>& kv = e.elements[1].elements;
      for (size_t i = 0; i + 1 < kv.size(); i += 2) {
        entry.fields.emplace_back(kv[i].str, kv[i + 1].str);
        entry.oversized = std::max({entry.oversized, kv[i].oversized, kv[i + 1].oversized});
      }
    }
    out.push_back(std::move(entry));
  }
  return out;
}

util::Status EnsureGroup(RedisClient& redis, const std::string& key, const std::string& group) {
  auto reply = redis.Command({"XGROUP", "CREATE", key, group, "0", "MKSTREAM"});
  if (!reply) return reply.error_value();
  if (reply.value().IsError() && reply.value().str.rfind("BUSYGROUP", 0) != 0) {
    return util::Status::Failure("redis: XGROUP CREATE " + key + " " + group + ": " +
                                 reply.value().str);
  }
  return util::Ok();
}

util::Result<std::string> AddEntry(RedisClient& redis, const std::string& key,
                                   const std::vector<std::pair<std::string, std::string>>& fields) {
  std::vector<std::string_view> args{"XADD", key, "*"};
  for (const auto& [k, v] : fields) {
    args.push_back(k);
    args.push_back(v);
  }
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return reply.value().str;
}

util::Result<std::vector<StreamEntry>> ReadGroup(RedisClient& redis, const std::string& key,
                                                 const std::string& group,
                                                 const std::string& consumer, int count,
                                                 int block_ms, bool pending,
                                                 const std::string& after) {
  const std::string n = std::to_string(count);
  const std::string block = std::to_string(block_ms);
  std::vector<std::string_view> args{"XREADGROUP", "GROUP", group, consumer, "COUNT", n};
  if (block_ms > 0 && !pending) {
    args.push_back("BLOCK");
    args.push_back(block);
  }
  args.push_back("STREAMS");
  args.push_back(key);
  args.push_back(pending ? std::string_view(after) : ">");
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  // [[key, entries]] or nil when nothing came.
  const RedisValue& v = reply.value();
  if (!v.IsArray() || v.elements.empty() || !v.elements[0].IsArray() ||
      v.elements[0].elements.size() < 2) {
    return std::vector<StreamEntry>();
  }
  return ParseEntries(v.elements[0].elements[1]);
}

util::Result<Claimed> AutoClaim(RedisClient& redis, const std::string& key,
                                const std::string& group, const std::string& consumer,
                                long long min_idle_ms, const std::string& start, int count) {
  auto reply = redis.Call({"XAUTOCLAIM", key, group, consumer, std::to_string(min_idle_ms), start,
                           "COUNT", std::to_string(count)});
  if (!reply) return reply.error_value();
  const RedisValue& v = reply.value();
  Claimed out;
  if (v.IsArray() && v.elements.size() >= 2) {
    out.next = v.elements[0].str;
    out.entries = ParseEntries(v.elements[1]);
  }
  return out;
}

util::Status Ack(RedisClient& redis, const std::string& key, const std::string& group,
                 const std::vector<std::string>& ids) {
  if (ids.empty()) return util::Ok();
  std::vector<std::string_view> args{"XACK", key, group};
  for (const std::string& id : ids) args.push_back(id);
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return util::Ok();
}

util::Result<std::string> AcknowledgedBelow(RedisClient& redis, const std::string& key,
                                            const std::string& group) {
  // The group's last delivered id first, then its pending entries: an entry delivered in
  // between is either in the pending summary or newer than the last delivered id read.
  auto info = redis.Call({"XINFO", "GROUPS", key});
  if (!info) return info.error_value();
  std::string last_delivered;
  for (const RedisValue& g : info.value().elements) {
    std::string name, last;
    for (size_t i = 0; i + 1 < g.elements.size(); i += 2) {
      if (g.elements[i].str == "name") name = g.elements[i + 1].str;
      if (g.elements[i].str == "last-delivered-id") last = g.elements[i + 1].str;
    }
    if (name == group) last_delivered = last;
  }
  if (last_delivered.empty()) return std::string();
  auto pending = redis.Call({"XPENDING", key, group});
  if (!pending) return pending.error_value();
  std::string min_id = NextStreamId(last_delivered);
  const RedisValue& p = pending.value();
  if (p.IsArray() && p.elements.size() >= 2 && p.elements[0].integer > 0 &&
      StreamIdLess(p.elements[1].str, min_id)) {
    min_id = p.elements[1].str;
  }
  return min_id;
}

util::Result<long long> TrimAcknowledged(RedisClient& redis, const std::string& key,
                                         const std::string& group) {
  auto below = AcknowledgedBelow(redis, key, group);
  if (!below) return below.error_value();
  if (below.value().empty()) return 0LL;
  auto trimmed = redis.Call({"XTRIM", key, "MINID", below.value()});
  if (!trimmed) return trimmed.error_value();
  return trimmed.value().integer;
}

std::string NextStreamId(const std::string& id) {
  unsigned long long ms = 0, seq = 0;
  if (!ParseId(id, ms, seq)) return id;
  return std::to_string(ms) + "-" + std::to_string(seq + 1);
}

bool StreamIdLess(const std::string& a, const std::string& b) {
  unsigned long long am = 0, as = 0, bm = 0, bs = 0;
  if (!ParseId(a, am, as) || !ParseId(b, bm, bs)) return a < b;
  return am != bm ? am < bm : as < bs;
}

}  // namespace veletas::cluster
