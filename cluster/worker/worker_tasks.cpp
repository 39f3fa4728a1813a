// The worker's arena tasks: taking one (its own pending tasks after a restart first, then a
// new one), playing it on its own thread with self-play paused, and letting it go once all
// its games are in Redis. The learner alone acknowledges tasks and takes back those of
// workers gone silent (cluster/learner/remote_arena.h); the heartbeat names the task being played.
#include <exception>
#include <map>

#include "cluster/worker/worker_loop.h"

namespace veletas::cluster {
namespace {

// Whether `e` says that the task stream has no group (yet): Redis restarted without its data
// and the learner has not made the group again. No task for now, not a failure.
bool NoTaskGroup(const util::Error& e) { return e.message.find("NOGROUP") != std::string::npos; }

}  // namespace

util::Status Worker::HandleTask() {
  if (!task_) return ClaimTask();
  if (!task_->done) return util::Ok();
  if (!task_->status.ok() && !halt_) {
    return util::Prefixed(task_->status.error_value(), "task " + task_->id + ": ");
  }
  {
    std::lock_guard<std::mutex> lock(task_->mutex);
    for (const std::string& f : task_->files) {
      if (!outbox_->Sent(f)) return util::Ok();  // acknowledged once its games are in Redis
    }
  }
  // Done once its games are in Redis (the learner acknowledges the task when it has them).
  task_->thread.join();
  ++report_.tasks;
  Log("worker " + id_ + ": task " + task_->id + " done (" + task_->task.match + ", " +
      std::to_string(task_->task.games.size()) + " games in " +
      std::to_string(static_cast<int>(util::SecondsSince(task_->started))) + " s)");
  task_.reset();
  UpdatePause();
  return util::Ok();
}

util::Status Worker::ClaimTask() {
  taking_.clear();
  std::vector<StreamEntry> got;
  if (!resumed_all_) {  // a restarted worker's own pending tasks first, each once
    auto own =
        ReadGroup(redis_, keys_.Tasks(), kWorkerGroup, id_, 1, 0, /*pending=*/true, resume_after_);
    if (!own) return NoTaskGroup(own.error_value()) ? util::Ok() : own.error_value();
    got = own.value();
    if (got.empty()) resumed_all_ = true;
    if (!got.empty()) resume_after_ = got.front().id;
  }
  if (got.empty()) {
    auto fresh = ReadGroup(redis_, keys_.Tasks(), kWorkerGroup, id_, 1, 0, /*pending=*/false);
    if (!fresh) return NoTaskGroup(fresh.error_value()) ? util::Ok() : fresh.error_value();
    got = fresh.value();
  }
  if (got.empty()) return util::Ok();
  return StartTask(got.front());
}

util::Status Worker::StartTask(const StreamEntry& entry) {
  const std::string* text = entry.Field("t");
  auto task = text != nullptr ? DecodeTask(*text)
                              : util::Result<ArenaTask>::Error("task: deleted or empty");
  if (task && (task.value().rules != settings_->rules || task.value().size != settings_->size)) {
    task = util::Result<ArenaTask>::Error("task: not this run's rules and board size");
  }
  if (!task) return DropTask(entry.id, task.error());
  // The heartbeat names the task while its networks load (a download can take a while).
  taking_ = entry.id;
  last_heartbeat_ = {};
  if (util::Status s = Heartbeat(); !s.ok()) return s;
  auto run = std::make_unique<TaskRun>();
  run->id = entry.id;
  run->task = task.value();
  std::array<arena::ArenaPlayer, 2> players;
  auto loaded = LoadTaskPlayers(*run, players);
  if (!loaded) return loaded.error_value();
  if (!loaded.value().ok()) return DropTask(entry.id, loaded.value().error());
  arena::ArenaConfig config = settings_->arena;
  config.seed = run->task.seed;
  config.opening_turns = run->task.opening_turns;
  if (util::Status e =
          arena::ValidateArena(players[0], players[1], run->task.rules, run->task.size, config);
      !e.ok()) {
    return DropTask(entry.id, e.error());
  }
  Log("worker " + id_ + ": task " + entry.id + ": " + run->task.match + ", " +
      std::to_string(run->task.games.size()) + " games");
  LaunchTask(run.get(), players, config);
  task_ = std::move(run);
  taking_.clear();
  UpdatePause();
  last_heartbeat_ = {};  // the heartbeat names the task at once: it renews the task's lease
  return Heartbeat();
}

util::Status Worker::DropTask(const std::string& entry_id, const std::string& why) {
  // Not played: the learner takes it back when its lease ends (the heartbeat never names it).
  Log("worker " + id_ + ": task " + entry_id + " dropped: " + why);
  taking_.clear();
  return util::Ok();
}

util::Result<util::Status> Worker::LoadTaskPlayers(TaskRun& run,
                                                   std::array<arena::ArenaPlayer, 2>& players) {
  search::BatchingConfig batching = settings_->batching;
  batching.max_wait_us = 0;  // the arena hands over whole batches from one thread
  std::map<std::string, search::Evaluator*> loaded;
  for (int side = 0; side < 2; ++side) {
    const TaskPlayer& p = side == 0 ? run.task.a : run.task.b;
    arena::ArenaPlayer& out = players[side];
    out.name = p.name;
    out.spec.kind = p.kind;
    out.spec.budget = p.budget;
    out.search = settings_->search;
    if (p.kind != arena::PlayerKind::kMcts) continue;
    if (!loaded.count(p.network)) {
      auto path = NetworkFile(p.network);
      auto evaluator = path ? loader_.Load(path.value())
                            : util::Result<std::unique_ptr<search::Evaluator>>(path.error_value());
      if (!evaluator) {
        if (!redis_.Connected()) return evaluator.error_value();  // taken again later
        return util::Status::Error("network " + p.network + ": " + evaluator.error());
      }
      run.networks.push_back(std::move(evaluator.value()));
      run.batching.push_back(
          std::make_unique<search::BatchingEvaluator>(*run.networks.back(), batching));
      loaded[p.network] = run.batching.back().get();
    }
    out.spec.checkpoint = p.network;
    out.evaluator = loaded[p.network];
  }
  return util::Ok();
}

void Worker::LaunchTask(TaskRun* r, const std::array<arena::ArenaPlayer, 2>& players,
                        const arena::ArenaConfig& config) {
  r->thread = std::thread([this, r, players, config] {
    try {
      arena::Arena arena(players[0], players[1], r->task.rules, r->task.size, config);
      arena.SetStop(&halt_);
      arena.PlayGames(r->task.games, [&](const arena::ArenaGame& g) {
        if (!r->status.ok()) return;
        Entry e;
        e.kind = EntryKind::kArena;
        e.game_id = ArenaGameId(r->task.match, g.index);
        e.worker = id_;
        e.task = r->id;
        e.match = r->task.match;
        e.arena = g;
        r->status = SpoolGame(EntryKind::kArena, std::move(e), r);
      });
    } catch (const std::exception& e) {
      r->status = util::Status::Failure(e.what());
    }
    r->done = true;
  });
}

}  // namespace veletas::cluster
