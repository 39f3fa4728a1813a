#include "cluster/learner/remote_arena.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cluster/transport/entry.h"
#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "util/clock.h"

namespace veletas::cluster {
namespace {

constexpr double kCoverageSeconds = 3;  // how often uncovered games are looked for
constexpr double kRepostSeconds = 10;   // how long a game stays uncovered before it is posted
constexpr size_t kMaxHeartbeatBytes = 64 * 1024;  // a longer heartbeat names no task
constexpr size_t kTaskTimes = 64;                 // completed tasks' times kept (HeldTaskLimit)
constexpr long long kMaxPending = 100000;         // tasks in play read at once (XPENDING)

bool SamePlayer(const TaskPlayer& a, const TaskPlayer& b) {
  return a.name == b.name && a.kind == b.kind && a.budget == b.budget && a.network == b.network;
}

bool SameSetup(const ArenaTask& a, const ArenaTask& b) {
  return a.match == b.match && a.rules == b.rules && a.size == b.size && a.seed == b.seed &&
         a.opening_turns == b.opening_turns && SamePlayer(a.a, b.a) && SamePlayer(a.b, b.b);
}

// The generation of a player named "gen_<N>", else -1.
long long GenerationOf(const std::string& name) {
  if (name.rfind("gen_", 0) != 0) return -1;
  return std::atoll(name.c_str() + 4);
}

}  // namespace

util::Result<ArenaTask> RemoteArena::TaskOf(const arena::RemoteMatch& match) {
  ArenaTask t;
  t.match = match.name;
  t.rules = match.arena.Rules();
  t.size = match.arena.Size();
  t.seed = match.config.seed;
  t.opening_turns = match.config.opening_turns;
  for (int side = 0; side < 2; ++side) {
    const arena::ArenaPlayer& p = side == 0 ? match.arena.A() : match.arena.B();
    TaskPlayer& out = side == 0 ? t.a : t.b;
    out.name = p.name;
    out.kind = p.spec.kind;
    out.budget = p.spec.budget;
    if (p.spec.kind == arena::PlayerKind::kMcts) {
      out.generation = GenerationOf(p.name);
      auto id = publish_(p.spec.checkpoint, out.generation);
      if (!id) return id.error_value();
      out.network = id.value();
    }
  }
  return t;
}

namespace {

// The workers group's last delivered task id.
util::Result<std::string> LastDelivered(RedisClient& redis, const std::string& key) {
  auto groups = StreamGroups(redis, key);
  if (!groups) return groups.error_value();
  std::string delivered = "0-0";
  for (const GroupInfo& g : groups.value()) {
    if (g.name == kWorkerGroup) delivered = g.last_delivered;
  }
  return delivered;
}

}  // namespace

void RemoteArena::DropUntaken(const ArenaTask& base) {
  RedisClient& redis = session_.Redis();
  const std::string key = session_.Keys().Tasks();
  auto delivered = LastDelivered(redis, key);
  auto range = RangeEntries(redis, key, "(" + (delivered ? delivered.value() : "0-0"), "+");
  if (!delivered || !range) return;  // best effort: a leftover task only costs a worker time
  std::vector<std::string> untaken;
  for (const StreamEntry& e : range.value()) {
    const std::string* text = e.Field("t");
    auto task = text != nullptr ? DecodeTask(*text) : util::Result<ArenaTask>::Error("");
    if (task && SameSetup(task.value(), base)) untaken.push_back(e.id);
  }
  DeleteEntries(redis, key, untaken);
}

util::Result<std::set<int>> RemoteArena::Covered(const ArenaTask& base) {
  RedisClient& redis = session_.Redis();
  const std::string key = session_.Keys().Tasks();
  auto last = LastDelivered(redis, key);
  if (!last) return last.error_value();
  const std::string delivered = last.value();
  auto pending = PendingEntries(redis, key, kWorkerGroup, "-", "+", kMaxPending);
  if (!pending) return pending.error_value();
  std::set<std::string> in_play;
  for (const PendingEntry& p : pending.value()) in_play.insert(p.id);
  auto range = RangeEntries(redis, key, "-", "+");
  if (!range) return range.error_value();
  std::set<int> covered;
  for (const StreamEntry& e : range.value()) {
    const std::string* text = e.Field("t");
    if (text == nullptr) continue;
    auto task = DecodeTask(*text);
    if (!task || !SameSetup(task.value(), base)) continue;
    tasks_[e.id] = task.value();  // (a restarted learner learns its tasks here)
    if (!in_play.count(e.id) && !StreamIdLess(delivered, e.id)) continue;  // done
    covered.insert(task.value().games.begin(), task.value().games.end());
  }
  return covered;
}

util::Status RemoteArena::Post(const ArenaTask& base, const std::vector<int>& games) {
  const size_t per_task = static_cast<size_t>(std::max(1, session_.Config().arena_games_per_task));
  RedisBatch batch;
  std::vector<ArenaTask> posted;
  for (size_t at = 0; at < games.size(); at += per_task) {
    ArenaTask t = base;
    t.games.assign(games.begin() + static_cast<long>(at),
                   games.begin() + static_cast<long>(std::min(games.size(), at + per_task)));
    batch.StreamAdd(session_.Keys().Tasks(), {{"t", EncodeTask(t)}});
    posted.push_back(std::move(t));
  }
  if (batch.Empty()) return util::Ok();
  auto replies = batch.Send(session_.Redis());
  if (!replies) return replies.error_value();
  for (size_t i = 0; i < replies.value().size(); ++i) {
    const RedisValue& r = replies.value()[i];
    if (r.IsError()) return util::Status::Failure("redis: XADD tasks: " + r.str);
    tasks_[r.str] = posted[i];
  }
  return util::Ok();
}

util::Result<RemoteArena::TaskHolder> RemoteArena::Holder(const std::string& id) {
  RedisClient& redis = session_.Redis();
  auto p = PendingEntries(redis, session_.Keys().Tasks(), kWorkerGroup, id, id, 1);
  // Nobody holds it: no entry, or a refusal (a bad id, the group gone).
  if (Refused(redis, p)) return TaskHolder{};
  if (!p) return p.error_value();
  if (p.value().empty()) return TaskHolder{};
  return TaskHolder{p.value()[0].consumer, static_cast<double>(p.value()[0].idle_ms) / 1000};
}

util::Result<util::Status> RemoteArena::Held(const std::string& sender, const std::string& id,
                                             int index, bool taken) {
  const std::string game = "game " + std::to_string(index);
  const auto task = tasks_.find(id);
  if (task == tasks_.end()) {
    return util::Status::Error("not held: " + game + " names no task of the match");
  }
  const std::vector<int>& games = task->second.games;
  if (std::find(games.begin(), games.end(), index) == games.end()) {
    return util::Status::Error("not held: " + game + " is not in task " + id);
  }
  const auto former = former_.find(id);
  if (former != former_.end() && former->second == sender) return util::Ok();
  auto holder = Holder(id);
  if (!holder) return holder.error_value();
  const std::string& name = holder.value().name;
  if (name == sender) return util::Ok();
  // A late copy of a game already taken, of a task nobody holds any more (a resend after a
  // reconnection, a learner restarted after completing the task): a duplicate.
  if (name.empty() && taken) return util::Ok();
  return util::Status::Error("not held: task " + id + " is held by " +
                             (name.empty() ? "nobody" : "\"" + name + "\""));
}

void RemoteArena::AckIfComplete(const std::string& id, const std::set<int>& missing) {
  const auto task = tasks_.find(id);
  if (task == tasks_.end()) return;
  for (int g : task->second.games) {
    if (missing.count(g)) return;
  }
  auto holder = Holder(id);
  if (!holder || holder.value().name.empty()) return;
  if (Ack(session_.Redis(), session_.Keys().Tasks(), kWorkerGroup, {id}).ok()) {
    former_[id] = holder.value().name;
    lease_.erase(id);
    task_seconds_.push_back(HeldSeconds(id, holder.value().seconds));
    if (task_seconds_.size() > kTaskTimes) task_seconds_.pop_front();
    held_since_.erase(id);
  }
}

double RemoteArena::HeldSeconds(const std::string& id, double idle) {
  const auto now = util::SteadyClock::now();
  const auto since = held_since_
                         .emplace(id, now - std::chrono::duration_cast<util::SteadyClock::duration>(
                                                std::chrono::duration<double>(idle)))
                         .first->second;
  return std::max(idle, util::SecondsSince(since));
}

double HeldTaskLimit(const std::deque<double>& completed, const config::ClusterConfig& c) {
  if (completed.size() < kMinTaskTimes) return c.task_max_seconds;
  std::vector<double> t(completed.begin(), completed.end());
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return std::min(c.task_max_seconds,
                  std::max(c.task_timeout_seconds, kSlowTaskFactor * t[t.size() / 2]));
}

void RemoteArena::AckAll() {
  auto pending = PendingEntries(session_.Redis(), session_.Keys().Tasks(), kWorkerGroup, "-", "+",
                                kMaxPending);
  if (!pending) return;  // best effort: a leftover task is taken back by the next match's lease
  std::vector<std::string> done;
  for (const PendingEntry& p : pending.value()) {
    if (tasks_.count(p.id)) done.push_back(p.id);
  }
  Ack(session_.Redis(), session_.Keys().Tasks(), kWorkerGroup, done);
}

util::Status RemoteArena::Leases(std::set<int>& freed) {
  RedisClient& redis = session_.Redis();
  const std::string key = session_.Keys().Tasks();
  auto pending = PendingEntries(redis, key, kWorkerGroup, "-", "+", kMaxPending);
  if (!pending) return pending.error_value();
  const auto now = util::SteadyClock::now();
  const double lease = session_.Config().task_timeout_seconds;
  const double slow = HeldTaskLimit(task_seconds_, session_.Config());
  for (const PendingEntry& p : pending.value()) {
    if (!tasks_.count(p.id)) continue;
    const std::string& id = p.id;
    const std::string& holder = p.consumer;
    const double held = HeldSeconds(id, static_cast<double>(p.idle_ms) / 1000);
    auto beat = GetValue(redis, session_.Keys().Worker(holder));
    if (!beat) return beat.error_value();
    bool named = false;  // its holder says it is alive and playing it
    if (beat.value() && beat.value()->size() <= kMaxHeartbeatBytes) {
      const nlohmann::json j = nlohmann::json::parse(*beat.value(), nullptr, false);
      named = j.is_object() && j.contains("task") && j["task"] == id;
    }
    char why[160];
    if (held >= slow) {
      std::snprintf(why, sizeof why, "held for %.0f s, past its limit of %.0f s", held, slow);
    } else if (named) {
      lease_[id] = now;
      continue;
    } else {
      const auto since = lease_.emplace(id, now).first->second;
      if (std::chrono::duration<double>(now - since).count() < lease) continue;
      std::snprintf(why, sizeof why, "its heartbeat has not named it for %g s", lease);
    }
    if (util::Status s = Ack(redis, key, kWorkerGroup, {id}); !s.ok()) return s;
    former_[id] = holder;
    lease_.erase(id);
    held_since_.erase(id);
    const std::vector<int>& games = tasks_[id].games;
    freed.insert(games.begin(), games.end());
    HashIncrBy(redis, session_.Keys().Stats(), "reassigned", 1);
    session_.Print("  cluster: task " + id + " of worker " + BoundedReason(holder) +
                   " taken back (" + why + "); its games are posted again");
  }
  return util::Ok();
}

Verdict RemoteArena::Judge(const StreamEntry& entry, const ArenaTask& base, std::set<int>& missing,
                           const std::function<util::Status(const arena::ArenaGame&)>& accept,
                           util::Status& failure) {
  using K = Verdict::Kind;
  if (entry.oversized > 0) {
    return {K::kRejected, "oversized: a field of " + std::to_string(entry.oversized) + " bytes"};
  }
  const std::string* bytes = entry.Field("e");
  if (bytes == nullptr) return {K::kRejected, "malformed: no entry field"};
  auto decoded = DecodeEntry(*bytes, session_.Config().max_entry_bytes);
  if (!decoded) return {K::kRejected, decoded.error()};
  const Entry& e = decoded.value();
  if (e.kind != EntryKind::kArena) {
    return {K::kRejected, "malformed: a self-play entry on the arena stream"};
  }
  if (e.worker != SenderOf(entry)) {
    return {K::kRejected, "forged: the entry names worker \"" + e.worker + "\""};
  }
  if (e.match != base.match) {
    return {K::kStale, "a game of match " + e.match + ", which is not being played"};
  }
  if (e.game_id != ArenaGameId(e.match, e.arena.index)) {
    return {K::kRejected, "malformed: the game id is not that of game " +
                              std::to_string(e.arena.index) + " of " + e.match};
  }
  auto held = Held(SenderOf(entry), e.task, e.arena.index, !missing.count(e.arena.index));
  if (!held) return {K::kKeep, ""};  // Redis is gone: judged when it is read again
  if (!held.value().ok()) return {K::kRejected, held.value().error()};
  if (!missing.count(e.arena.index)) return {K::kDuplicate, ""};
  // Journaled with its game (one line, synced): gate and ladder games can be audited.
  arena::ArenaGame game = e.arena;
  game.worker = SenderOf(entry);
  util::Status s = accept(game);
  if (s.ok()) {
    missing.erase(e.arena.index);
    AckIfComplete(e.task, missing);
    return {K::kAccepted, ""};
  }
  if (s.kind() == util::ErrorKind::kBadInput) return {K::kRejected, "invalid game: " + s.error()};
  failure = s;
  return {K::kKeep, ""};
}

util::Status RemoteArena::Play(const arena::RemoteMatch& match, const std::vector<int>& indices,
                               const std::function<util::Status(const arena::ArenaGame&)>& accept) {
  auto base = TaskOf(match);
  if (!base) return base.error_value();
  std::set<int> missing(indices.begin(), indices.end());
  std::map<int, util::SteadyClock::time_point> uncovered;  // game -> since when no task covers it
  util::SteadyClock::time_point last_check{};
  session_.Restart();
  if (base.value().match != match_) {  // the gate's batches share their tasks' history
    tasks_.clear();
    former_.clear();
    lease_.clear();
    held_since_.clear();
    match_ = base.value().match;
  }
  bool first = true;
  const EntryKind kind = EntryKind::kArena;
  while (!missing.empty()) {
    if (first || util::SecondsSince(last_check) >= kCoverageSeconds) {
      last_check = util::SteadyClock::now();
      std::set<int> freed;  // games of tasks taken back: posted again at once
      auto covered = Covered(base.value());
      if (!covered && !Unavailable(session_.Redis(), covered.error_value())) {
        // The tasks stream or its group is gone while the run's data is not (deleted by
        // hand): made again, else no task could ever be posted.
        session_.Print("  cluster: arena tasks: " + covered.error().substr(0, 200) +
                       "; making the tasks' group again");
        if (util::Status s = session_.EnsureTaskGroup();
            !s.ok() && !Unavailable(session_.Redis(), s.error_value())) {
          return s;
        }
        covered = Covered(base.value());
      }
      if (covered && !first) {
        if (util::Status s = Leases(freed);
            !s.ok() && !Unavailable(session_.Redis(), s.error_value())) {
          return s;
        }
        if (!freed.empty()) covered = Covered(base.value());
      }
      if (covered) {
        std::vector<int> post;
        for (int i : missing) {
          if (covered.value().count(i)) {
            uncovered.erase(i);
            continue;
          }
          const auto [it, fresh] = uncovered.emplace(i, util::SteadyClock::now());
          // At the start every game without a task is posted; later only those that stayed
          // uncovered a while (their results may just be on their way).
          if (first || freed.count(i) || util::SecondsSince(it->second) >= kRepostSeconds) {
            post.push_back(i);
            uncovered.erase(it);
          }
        }
        if (util::Status s = Post(base.value(), post); !s.ok()) {
          // Redis full or gone: the games stay uncovered and are posted again later.
          if (!Unavailable(session_.Redis(), s.error_value())) return s;
          session_.Print("  cluster: arena tasks not posted (" +
                         RedisTrouble(session_.Redis(), s.error_value()) + "); trying again");
        }
        TrimAcknowledged(session_.Redis(), session_.Keys().Tasks(), kWorkerGroup);
        first = false;
      }
    }
    auto entries = session_.Next(kind);
    if (!entries) return entries.error_value();
    std::vector<Verdict> verdicts;
    util::Status failure = util::Ok();
    for (const StreamEntry& e : entries.value()) {
      verdicts.push_back(failure.ok() ? Judge(e, base.value(), missing, accept, failure)
                                      : Verdict{Verdict::Kind::kKeep, ""});
    }
    if (util::Status s = session_.Settle(kind, entries.value(), verdicts); !s.ok()) return s;
    if (!failure.ok()) return failure;
  }
  DropUntaken(base.value());
  AckAll();
  session_.Trim(kind);
  return util::Ok();
}

}  // namespace veletas::cluster
