// The worker's arena tasks: the one the learner handed to it (its own key, which it may only
// read: cluster/transport/task_handout.h), played on its own thread with self-play paused,
// and let go once all its games are in Redis. The learner alone hands tasks out, marks them
// done and takes back those of workers gone silent (cluster/learner/remote_arena.h); the
// heartbeat names the task being played.
#include <algorithm>
#include <exception>
#include <map>

#include "cluster/transport/redis_commands.h"
#include "cluster/transport/task_handout.h"
#include "cluster/worker/worker_loop.h"

namespace veletas::cluster {

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
  Finish(task_->id);
  Log("worker " + id_ + ": task " + task_->id + " done (" + task_->task.match + ", " +
      std::to_string(task_->task.games.size()) + " games in " +
      std::to_string(static_cast<int>(util::SecondsSince(task_->started))) + " s)");
  task_.reset();
  UpdatePause();
  return util::Ok();
}

util::Status Worker::ClaimTask() {
  taking_.clear();
  auto handed = HandedTaskOf(redis_, keys_, id_);
  if (Refused(redis_, handed) && handed.error().find(": NOPERM") != std::string::npos) {
    // A user made before tasks were handed out in a key of the worker's own.
    return util::Status::Error(
        "redis refused reading this worker's task key " + keys_.Task(id_) + " (" +
        handed.error().substr(0, 160) +
        "): its Redis user predates the tasks handed to each worker; on the Redis machine run "
        "`veletas cluster upgrade-acl --run " +
        options_.run +
        " --dir DIR --redis URL` (it rewrites users.acl in place), then start the worker again");
  }
  if (!handed) return handed.error_value();
  if (!handed.value() || Finished(handed.value()->id)) return util::Ok();
  return StartTask(*handed.value());
}

bool Worker::Finished(const std::string& id) const {
  return std::find(finished_.begin(), finished_.end(), id) != finished_.end();
}

void Worker::Finish(const std::string& id) {
  finished_.push_back(id);
  if (finished_.size() > kFinishedKept) finished_.pop_front();
}

util::Status Worker::StartTask(const HandedTask& handed) {
  auto task = DecodeTask(handed.text);
  if (task && (task.value().rules != settings_->rules || task.value().size != settings_->size)) {
    task = util::Result<ArenaTask>::Error("task: not this run's rules and board size");
  }
  if (!task) return DropTask(handed.id, task.error());
  // The heartbeat names the task while its networks load (a download can take a while).
  taking_ = handed.id;
  last_heartbeat_ = {};
  if (util::Status s = Heartbeat(); !s.ok()) return s;
  auto run = std::make_unique<TaskRun>();
  run->id = handed.id;
  run->task = task.value();
  std::array<arena::ArenaPlayer, 2> players;
  auto loaded = LoadTaskPlayers(*run, players);
  if (!loaded) return loaded.error_value();
  if (!loaded.value().ok()) return DropTask(handed.id, loaded.value().error());
  arena::ArenaConfig config = settings_->arena;
  config.seed = run->task.seed;
  config.opening_turns = run->task.opening_turns;
  if (util::Status e =
          arena::ValidateArena(players[0], players[1], run->task.rules, run->task.size, config);
      !e.ok()) {
    return DropTask(handed.id, e.error());
  }
  Log("worker " + id_ + ": task " + handed.id + ": " + run->task.match + ", " +
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
  Finish(entry_id);
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
