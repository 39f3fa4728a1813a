#include "cluster/transport/streams.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "cluster/transport/redis_commands.h"

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

util::Result<long long> StreamLength(RedisClient& redis, const std::string& key) {
  auto reply = redis.Call({"XLEN", key});
  if (!reply) return reply.error_value();
  return reply.value().integer;
}

util::Result<std::vector<StreamEntry>> RangeEntries(RedisClient& redis, const std::string& key,
                                                    const std::string& start,
                                                    const std::string& end, int count) {
  const std::string n = std::to_string(count);
  std::vector<std::string_view> args{"XRANGE", key, start, end};
  if (count > 0) {
    args.push_back("COUNT");
    args.push_back(n);
  }
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return ParseEntries(reply.value());
}

util::Result<long long> DeleteEntries(RedisClient& redis, const std::string& key,
                                      const std::vector<std::string>& ids) {
  if (ids.empty()) return 0LL;
  std::vector<std::string_view> args{"XDEL", key};
  args.insert(args.end(), ids.begin(), ids.end());
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  return reply.value().integer;
}

util::Result<long long> TrimBelow(RedisClient& redis, const std::string& key,
                                  const std::string& min_id) {
  auto trimmed = redis.Call({"XTRIM", key, "MINID", min_id});
  if (!trimmed) return trimmed.error_value();
  return trimmed.value().integer;
}

util::Result<std::vector<StreamEntry>> ReadGroupStreams(RedisClient& redis,
                                                        const std::string& group,
                                                        const std::string& consumer, int count,
                                                        int block_ms,
                                                        const std::vector<std::string>& keys) {
  const std::string n = std::to_string(count);
  const std::string block = std::to_string(block_ms);
  std::vector<std::string_view> args{"XREADGROUP", "GROUP", group, consumer, "COUNT", n};
  if (block_ms > 0) {
    args.push_back("BLOCK");
    args.push_back(block);
  }
  args.push_back("STREAMS");
  args.insert(args.end(), keys.begin(), keys.end());
  args.insert(args.end(), keys.size(), ">");
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  // [[key, entries], ...] or nil when nothing came.
  std::vector<StreamEntry> out;
  for (const RedisValue& s : reply.value().elements) {
    if (!s.IsArray() || s.elements.size() < 2) continue;
    for (StreamEntry& e : ParseEntries(s.elements[1])) {
      e.stream = s.elements[0].str;
      out.push_back(std::move(e));
    }
  }
  return out;
}

util::Result<std::vector<GroupInfo>> StreamGroups(RedisClient& redis, const std::string& key) {
  auto info = redis.Call({"XINFO", "GROUPS", key});
  if (!info) return info.error_value();
  std::vector<GroupInfo> out;
  for (const RedisValue& g : info.value().elements) {
    GroupInfo group;
    ForEachField(g, [&](const std::string& field, const RedisValue& value) {
      if (field == "name") group.name = value.str;
      if (field == "last-delivered-id") group.last_delivered = value.str;
      if (field == "pending") group.pending = value.integer;
      if (field == "lag") group.lag = value.integer;
    });
    out.push_back(std::move(group));
  }
  return out;
}

util::Result<PendingSummary> Pending(RedisClient& redis, const std::string& key,
                                     const std::string& group) {
  auto reply = redis.Call({"XPENDING", key, group});
  if (!reply) return reply.error_value();
  // [count, min id, max id, [[consumer, count], ...]]; the ids and consumers nil when none.
  const RedisValue& p = reply.value();
  PendingSummary out;
  if (!p.IsArray() || p.elements.size() < 4) return out;
  out.count = p.elements[0].integer;
  out.min_id = p.elements[1].str;
  out.max_id = p.elements[2].str;
  for (const RedisValue& c : p.elements[3].elements) {
    if (c.elements.size() != 2) continue;
    const RedisValue& n = c.elements[1];  // a string in RESP2
    out.consumers.emplace_back(c.elements[0].str,
                               n.IsInteger() ? n.integer : std::atoll(n.str.c_str()));
  }
  return out;
}

util::Result<std::vector<PendingEntry>> PendingEntries(RedisClient& redis, const std::string& key,
                                                       const std::string& group,
                                                       const std::string& start,
                                                       const std::string& end, long long count,
                                                       const std::string& consumer) {
  const std::string n = std::to_string(count);
  std::vector<std::string_view> args{"XPENDING", key, group, start, end, n};
  if (!consumer.empty()) args.push_back(consumer);
  auto reply = redis.Call(args);
  if (!reply) return reply.error_value();
  // [[id, consumer, idle ms, deliveries], ...]
  std::vector<PendingEntry> out;
  for (const RedisValue& p : reply.value().elements) {
    if (p.elements.size() < 4) continue;
    out.push_back(
        {p.elements[0].str, p.elements[1].str, p.elements[2].integer, p.elements[3].integer});
  }
  return out;
}

util::Result<std::string> AcknowledgedBelow(RedisClient& redis, const std::string& key,
                                            const std::string& group) {
  // The group's last delivered id first, then its pending entries: an entry delivered in
  // between is either in the pending summary or newer than the last delivered id read.
  auto groups = StreamGroups(redis, key);
  if (!groups) return groups.error_value();
  std::string last_delivered;
  for (const GroupInfo& g : groups.value()) {
    if (g.name == group) last_delivered = g.last_delivered;
  }
  if (last_delivered.empty()) return std::string();
  auto pending = Pending(redis, key, group);
  if (!pending) return pending.error_value();
  std::string min_id = NextStreamId(last_delivered);
  const PendingSummary& p = pending.value();
  if (p.count > 0 && StreamIdLess(p.min_id, min_id)) min_id = p.min_id;
  return min_id;
}

util::Result<long long> TrimAcknowledged(RedisClient& redis, const std::string& key,
                                         const std::string& group) {
  auto below = AcknowledgedBelow(redis, key, group);
  if (!below) return below.error_value();
  if (below.value().empty()) return 0LL;
  return TrimBelow(redis, key, below.value());
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
