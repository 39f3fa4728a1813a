// The worker's loop (internal to cluster/worker*.cpp; other layers use RunWorker,
// cluster/worker/worker.h). Its members are defined by responsibility: worker.cpp (the loop, the
// connection, the run's config), worker_selfplay.cpp (self-play runs, network files, the
// spool), worker_heartbeat.cpp (the heartbeat key), worker_tasks.cpp (arena tasks).
#pragma once

#include <array>
#include <atomic>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "arena/arena.h"
#include "cluster/transport/entry.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/task.h"
#include "cluster/transport/task_handout.h"
#include "cluster/worker/outbox.h"
#include "cluster/worker/spool_writer.h"
#include "cluster/worker/worker.h"
#include "search/batching_evaluator.h"
#include "selfplay/selfplay_stats.h"
#include "util/clock.h"
#include "util/run_dir.h"

namespace veletas::cluster {

// Self-play with one network on its own thread.
struct SelfplayRun {
  std::string network;
  long long generation = 0;
  RunSettings settings;
  std::unique_ptr<search::Evaluator> evaluator;
  std::optional<model::InferencePrecision> precision;  // RunLoader::LastPrecision of evaluator
  std::atomic<bool> drain{false};
  std::atomic<bool> done{false};
  selfplay::SelfplayStats counted;  // of this run, as last reported (its thread only)
  util::Status status = util::Ok();
  std::thread thread;
};

// An arena task being played on its own thread.
struct TaskRun {
  std::string id;  // the task's id (HandedTask::id)
  ArenaTask task;
  std::vector<std::unique_ptr<search::Evaluator>> networks;
  std::vector<std::unique_ptr<search::BatchingEvaluator>> batching;
  std::mutex mutex;
  std::vector<std::string> files;  // spooled games
  std::atomic<bool> done{false};
  util::Status status = util::Ok();
  std::thread thread;
  util::SteadyClock::time_point started = util::SteadyClock::now();
};

class Worker {
 public:
  Worker(const WorkerOptions& options, RunLoader& loader)
      : options_(options), loader_(loader), keys_(options.run), redis_(options.redis) {}

  util::Result<WorkerReport> Run();

 private:
  void Log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }
  bool Stopping() const { return options_.stop != nullptr && options_.stop->load(); }
  util::Status Poll();
  // Redis refused (full, at its connection limit) or could not be reached: logs why (once
  // per kind of trouble) and backs off (next_connect_), 0.5 s doubling to kMaxRetrySeconds.
  void Trouble(const util::Error& error);
  static constexpr double kMinRetrySeconds = 0.5;
  static constexpr double kMaxRetrySeconds = 5;
  // The worker's id: the name in its Redis user "vz:<run>:<name>" when it has one (a
  // different --id is bad input), else worker_id.h's WorkerId.
  util::Result<std::string> IdOfUser() const;
  util::Status LoadConfig();
  util::Status FollowNetwork();
  util::Result<std::string> NetworkFile(const std::string& id);
  util::Status StartSelfplay(const std::string& id, long long generation);
  util::Status ReapSelfplay();
  util::Status HandleTask();
  util::Status ClaimTask();
  // Starts playing `handed` (or drops it, logging why, when it cannot be played here).
  util::Status StartTask(const HandedTask& handed);
  // Whether task `id` was played (or dropped) already: its key may still name it until the
  // learner has all its games.
  bool Finished(const std::string& id) const;
  void Finish(const std::string& id);
  static constexpr size_t kFinishedKept = 64;
  // The task's two players, their networks loaded into `run`. The value is OK, or bad input
  // saying why the task is to be dropped; the outer error: a network could not be had
  // without Redis.
  util::Result<util::Status> LoadTaskPlayers(TaskRun& run,
                                             std::array<arena::ArenaPlayer, 2>& players);
  // Logs why task `entry_id` is dropped (left to the learner to take back).
  util::Status DropTask(const std::string& entry_id, const std::string& why);
  // Starts the thread that plays task `r` and spools its games.
  void LaunchTask(TaskRun* r, const std::array<arena::ArenaPlayer, 2>& players,
                  const arena::ArenaConfig& config);
  util::Status Heartbeat();
  util::Status SpoolGame(EntryKind kind, Entry entry, TaskRun* task);
  void UpdatePause() { pause_ = task_ != nullptr || queue_full_; }
  // Adds the searches `r` ran (and their evaluations) since its last report to the worker's.
  void CountSearches(SelfplayRun& r, const selfplay::SelfplayStats& s) {
    selfplay_searches_ += s.searches - r.counted.searches;
    const int64_t evaluations = selfplay_evaluations_ +=
        static_cast<int64_t>(s.evaluations - r.counted.evaluations);
    r.counted = s;
    if (options_.evaluations != nullptr) *options_.evaluations = evaluations;
  }
  void StopAll();

  const WorkerOptions& options_;
  RunLoader& loader_;
  const RunKeys keys_;
  RedisClient redis_;
  std::string id_;
  util::DirectoryLock lock_;
  std::unique_ptr<Outbox> outbox_;
  std::unique_ptr<SpoolWriter> spool_;  // self-play games into outbox_
  std::string config_text_;
  std::optional<RunSettings> settings_;
  bool settings_changed_ = false;
  std::list<std::unique_ptr<SelfplayRun>> selfplay_;  // the last one is current
  std::unique_ptr<TaskRun> task_;
  std::deque<std::string> finished_;  // the last tasks played or dropped (Finished)
  std::string taking_;                // the task whose networks are loading ("": none)
  std::atomic<bool> pause_{false};
  std::atomic<bool> halt_{false};
  bool queue_full_ = false;
  WorkerReport report_;
  std::atomic<int64_t> selfplay_games_{0}, arena_games_{0};
  std::atomic<int64_t> selfplay_searches_{0}, selfplay_evaluations_{0};
  std::deque<util::SteadyClock::time_point> recent_games_;  // for games/s
  std::mutex recent_mutex_;
  util::SteadyClock::time_point started_ = util::SteadyClock::now();
  util::SteadyClock::time_point last_heartbeat_{};
  util::SteadyClock::time_point next_connect_{};
  double retry_seconds_ = kMinRetrySeconds;
  std::string trouble_;  // RedisTrouble while Redis refuses or is away, else ""
  bool was_connected_ = false;
  bool waiting_logged_ = false;
};

}  // namespace veletas::cluster
