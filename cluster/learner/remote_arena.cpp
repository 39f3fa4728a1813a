#include "cluster/learner/remote_arena.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cluster/transport/entry.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/worker_registry.h"

namespace veletas::cluster {
namespace {

constexpr size_t kTaskTimes = 64;  // completed tasks' times kept (HeldTaskLimit)

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

std::string HeartbeatTask(const std::string& heartbeat) {
  if (heartbeat.size() > kMaxHeartbeatBytes) return "";
  const nlohmann::json j = nlohmann::json::parse(heartbeat, nullptr, false);
  if (!j.is_object() || !j.contains("task") || !j["task"].is_string()) return "";
  return j["task"].get<std::string>();
}

std::vector<std::string> HandOutOrder(const std::vector<std::string>& idle,
                                      const std::map<std::string, int>& taken_back) {
  std::vector<std::string> order = idle;
  auto count = [&](const std::string& w) {
    const auto it = taken_back.find(w);
    return it == taken_back.end() ? 0 : it->second;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return count(a) < count(b); });
  return order;
}

double HeldTaskLimit(const std::deque<double>& completed, const config::ClusterConfig& c) {
  if (completed.size() < kMinTaskTimes) return c.task_max_seconds;
  std::vector<double> t(completed.begin(), completed.end());
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return std::min(c.task_max_seconds,
                  std::max(c.task_timeout_seconds, kSlowTaskFactor * t[t.size() / 2]));
}

RemoteArena::RemoteArena(IngestSession& session, PublishFn publish)
    : session_(session), publish_(std::move(publish)) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  id_prefix_ = std::to_string(ms.count()) + "-";
}

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

util::Status RemoteArena::TakeBack(const std::string& id, const std::string& why) {
  const auto hand = handed_.find(id);
  if (hand == handed_.end()) return util::Ok();
  const std::string worker = hand->second.worker;
  if (util::Status s = TakeBackTask(session_.Redis(), session_.Keys(), worker); !s.ok()) return s;
  former_[id] = worker;
  handed_.erase(hand);
  if (why.empty()) return util::Ok();
  ++taken_back_[worker];
  HashIncrBy(session_.Redis(), session_.Keys().Stats(), "reassigned", 1);
  HashIncrBy(session_.Redis(), session_.Keys().Stats(), "taken-back:" + worker, 1);
  session_.Print("  cluster: task " + id + " of worker " + BoundedReason(worker) + " taken back (" +
                 why + "); its games are handed out again");
  return util::Ok();
}

util::Status RemoteArena::Reconcile(const ArenaTask& base, const std::set<int>& missing,
                                    const std::map<std::string, WorkerTaskState>& states) {
  RedisClient& redis = session_.Redis();
  const auto now = util::SteadyClock::now();
  for (const auto& [worker, state] : states) {
    if (!state.handed) continue;
    const std::string& id = state.handed->id;
    const auto hand = handed_.find(id);
    if (hand != handed_.end() && hand->second.worker == worker) continue;
    // A task this arena did not hand out: a restarted learner's, of this match and still
    // wanted, is adopted; anything else (another match's, one done or taken back) withdrawn.
    auto task = DecodeTask(state.handed->text);
    bool wanted = hand == handed_.end() && !former_.count(id) && task &&
                  SameSetup(task.value(), base) && !task.value().games.empty();
    for (int g : task ? task.value().games : std::vector<int>()) wanted &= missing.count(g) > 0;
    if (wanted) {
      handed_[id] = {worker, now, now};
      tasks_[id] = task.value();
      session_.Print("  cluster: task " + id + " (" + std::to_string(task.value().games.size()) +
                     " games) is held by worker " + worker + " (handed out before a restart)");
      continue;
    }
    if (util::Status s = TakeBackTask(redis, session_.Keys(), worker); !s.ok()) return s;
  }
  for (const auto& [id, hand] : handed_) {
    const auto state = states.find(hand.worker);
    if (state != states.end() && state->second.handed && state->second.handed->id == id) continue;
    // Gone from Redis (deleted by hand, Redis restarted without its data; or its worker
    // unregistered): the record is the learner's, so the key is written again.
    if (state == states.end()) continue;  // unregistered: its lease runs out
    HandedTask t{id, EncodeTask(tasks_[id]), static_cast<long long>(std::time(nullptr))};
    if (util::Status s = HandOutTask(redis, session_.Keys(), hand.worker, t); !s.ok()) return s;
  }
  return util::Ok();
}

util::Status RemoteArena::Leases(const std::map<std::string, WorkerTaskState>& states) {
  const auto now = util::SteadyClock::now();
  const double lease = session_.Config().task_timeout_seconds;
  const double slow = HeldTaskLimit(task_seconds_, session_.Config());
  std::vector<std::pair<std::string, std::string>> ended;  // task id, why
  for (auto& [id, hand] : handed_) {
    const auto state = states.find(hand.worker);
    const bool named = state != states.end() && state->second.heartbeat &&
                       HeartbeatTask(*state->second.heartbeat) == id;
    const double held = std::chrono::duration<double>(now - hand.since).count();
    char why[160];
    if (held >= slow) {
      std::snprintf(why, sizeof why, "held for %.0f s, past its limit of %.0f s", held, slow);
    } else if (named) {
      hand.named = now;
      continue;
    } else if (std::chrono::duration<double>(now - hand.named).count() >= lease) {
      std::snprintf(why, sizeof why, "its heartbeat has not named it for %g s", lease);
    } else {
      continue;
    }
    ended.emplace_back(id, why);
  }
  for (const auto& [id, why] : ended) {
    if (util::Status s = TakeBack(id, why); !s.ok()) return s;
  }
  return util::Ok();
}

util::Status RemoteArena::HandOut(const ArenaTask& base, const std::set<int>& missing,
                                  const std::map<std::string, WorkerTaskState>& states) {
  std::set<int> waiting = missing;
  std::set<std::string> holding;
  for (const auto& [id, hand] : handed_) {
    for (int g : tasks_[id].games) waiting.erase(g);
    holding.insert(hand.worker);
  }
  if (waiting.empty()) return util::Ok();
  std::vector<std::string> idle;
  for (const auto& [worker, state] : states) {
    // Alive, playing no task (also none taken back that it still plays), holding none.
    if (state.heartbeat && HeartbeatTask(*state.heartbeat).empty() && !holding.count(worker)) {
      idle.push_back(worker);
    }
  }
  const size_t per_task = static_cast<size_t>(std::max(1, session_.Config().arena_games_per_task));
  auto next = waiting.begin();
  for (const std::string& worker : HandOutOrder(idle, taken_back_)) {
    if (next == waiting.end()) break;
    ArenaTask t = base;
    while (next != waiting.end() && t.games.size() < per_task) t.games.push_back(*next++);
    const std::string id = id_prefix_ + std::to_string(++next_id_);
    const HandedTask handed{id, EncodeTask(t), static_cast<long long>(std::time(nullptr))};
    if (util::Status s = HandOutTask(session_.Redis(), session_.Keys(), worker, handed); !s.ok()) {
      return s;
    }
    const auto now = util::SteadyClock::now();
    handed_[id] = {worker, now, now};
    tasks_[id] = std::move(t);
  }
  return util::Ok();
}

util::Status RemoteArena::Round(const ArenaTask& base, const std::set<int>& missing) {
  auto workers = RegisteredWorkers(session_.Redis(), session_.Keys());
  if (!workers) return workers.error_value();
  auto states = WorkerTaskStates(session_.Redis(), session_.Keys(), workers.value());
  if (!states) return states.error_value();
  if (util::Status s = Reconcile(base, missing, states.value()); !s.ok()) return s;
  if (util::Status s = Leases(states.value()); !s.ok()) return s;
  return HandOut(base, missing, states.value());
}

util::Status RemoteArena::Held(const std::string& sender, const std::string& id, int index,
                               bool taken) const {
  const std::string game = "game " + std::to_string(index);
  const auto task = tasks_.find(id);
  if (task == tasks_.end()) {
    return util::Status::Error("not held: " + game + " names no task of the match");
  }
  const std::vector<int>& games = task->second.games;
  if (std::find(games.begin(), games.end(), index) == games.end()) {
    return util::Status::Error("not held: " + game + " is not in task " + id);
  }
  const auto hand = handed_.find(id);
  if (hand != handed_.end() && hand->second.worker == sender) return util::Ok();
  const auto former = former_.find(id);
  if (former != former_.end() && former->second == sender) return util::Ok();
  // A late copy of a game already taken, of a task nobody holds any more (a resend after a
  // reconnection, a learner restarted after completing the task): a duplicate.
  if (hand == handed_.end() && taken) return util::Ok();
  return util::Status::Error(
      "not held: task " + id + " is held by " +
      (hand == handed_.end() ? "nobody" : "\"" + hand->second.worker + "\""));
}

void RemoteArena::CompleteIfDone(const std::string& id, const std::set<int>& missing) {
  const auto hand = handed_.find(id);
  if (hand == handed_.end()) return;
  for (int g : tasks_[id].games) {
    if (missing.count(g)) return;
  }
  const double held = util::SecondsSince(hand->second.since);
  // Best effort: a key left behind is withdrawn by the next round (its id is a former one).
  TakeBack(id, "");
  task_seconds_.push_back(held);
  if (task_seconds_.size() > kTaskTimes) task_seconds_.pop_front();
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
  if (util::Status held =
          Held(SenderOf(entry), e.task, e.arena.index, !missing.count(e.arena.index));
      !held.ok()) {
    return {K::kRejected, held.error()};
  }
  if (!missing.count(e.arena.index)) return {K::kDuplicate, ""};
  // Journaled with its game (one line, synced): gate and ladder games can be audited.
  arena::ArenaGame game = e.arena;
  game.worker = SenderOf(entry);
  util::Status s = accept(game);
  if (s.ok()) {
    missing.erase(e.arena.index);
    CompleteIfDone(e.task, missing);
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
  session_.Restart();
  if (base.value().match != match_) {  // the gate's batches share their tasks' history
    tasks_.clear();
    handed_.clear();
    former_.clear();
    taken_back_.clear();
    match_ = base.value().match;
  }
  std::optional<util::SteadyClock::time_point> last_round;
  const EntryKind kind = EntryKind::kArena;
  while (!missing.empty()) {
    if (!last_round || util::SecondsSince(*last_round) >= kRoundSeconds) {
      last_round = util::SteadyClock::now();
      util::Status s = Round(base.value(), missing);
      if (!s.ok()) {
        // Redis full or gone: the round is tried again (nothing is lost: the record is kept).
        if (!Unavailable(session_.Redis(), s.error_value())) return s;
        const std::string why = RedisTrouble(session_.Redis(), s.error_value());
        if (why != trouble_) {
          session_.Print("  cluster: arena tasks not handed out (" + why + "); trying again");
        }
        trouble_ = why;
      } else {
        trouble_.clear();
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
  // Every game is in: what is still handed out (none, unless a key could not be deleted) is
  // withdrawn (best effort: the next match's round withdraws what is left).
  std::vector<std::string> left;
  for (const auto& [id, hand] : handed_) left.push_back(id);
  for (const std::string& id : left) TakeBack(id, "");
  session_.Trim(kind);
  return util::Ok();
}

}  // namespace veletas::cluster
