#include "cluster/worker.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "arena/arena.h"
#include "cluster/entry.h"
#include "cluster/keys.h"
#include "cluster/networks.h"
#include "cluster/outbox.h"
#include "cluster/streams.h"
#include "cluster/task.h"
#include "search/batching_evaluator.h"
#include "selfplay/selfplay_engine.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/run_dir.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

uint64_t RandomWord() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

// The host name, reduced to the characters a worker id may hold.
std::string HostName() {
  char buf[256] = {};
  ::gethostname(buf, sizeof buf - 1);
  std::string out;
  for (const char* p = buf; *p && out.size() < 40; ++p) {
    const char c = *p;
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  }
  return out.empty() ? "worker" : out;
}

// The worker's id: `given`, else DIR/worker_id, else a new one saved there.
util::Result<std::string> WorkerId(const std::string& dir, const std::string& given) {
  const std::string path = (fs::path(dir) / "worker_id").string();
  std::string id = given;
  if (id.empty() && fs::exists(path)) {
    auto text = util::ReadFile(path);
    if (!text) return text.error_value();
    id = text.value();
    while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) id.pop_back();
  }
  if (id.empty()) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%06llx",
                  static_cast<unsigned long long>(RandomWord() & 0xFFFFFF));
    id = HostName() + "-" + suffix;
  }
  if (util::Status s = ValidateName("worker id", id); !s.ok()) return s.error_value();
  if (util::Status s = util::WriteFileAtomic(path, id + "\n"); !s.ok()) return s.error_value();
  return id;
}

// Writes self-play games into the spool on a thread of its own, so that a search thread
// (and the games in flight it batches) never waits for the disk. A game waits in memory for
// milliseconds; a kill then loses it as it loses the games in flight: nothing acknowledged.
class SpoolWriter {
 public:
  explicit SpoolWriter(Outbox& outbox) : outbox_(outbox), thread_([this] { Loop(); }) {}
  ~SpoolWriter() { Close(); }

  // Queues `entry` for the spool.
  void Add(EntryKind kind, std::string entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.emplace_back(kind, std::move(entry));
    cv_.notify_one();
  }

  // The first write error so far (the writer stops writing at it).
  util::Status status() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }

  // Writes what is queued, stops the thread and returns status().
  util::Status Close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = true;
      cv_.notify_one();
    }
    if (thread_.joinable()) thread_.join();
    return status();
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      cv_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (queue_.empty() || !status_.ok()) return;
      auto [kind, entry] = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      auto name = outbox_.Put(kind, entry);
      lock.lock();
      if (!name) status_ = name.error_value();
    }
  }

  Outbox& outbox_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::pair<EntryKind, std::string>> queue_;
  bool closing_ = false;
  util::Status status_ = util::Ok();
  std::thread thread_;  // last: starts once the rest is built
};

// Self-play with one network on its own thread.
struct SelfplayRun {
  std::string network;
  long long generation = 0;
  RunSettings settings;
  std::unique_ptr<search::Evaluator> evaluator;
  std::atomic<bool> drain{false};
  std::atomic<bool> done{false};
  selfplay::SelfplayStats counted;  // of this run, as last reported (its thread only)
  util::Status status = util::Ok();
  std::thread thread;
};

// An arena task being played on its own thread.
struct TaskRun {
  std::string id;  // the task's stream id
  ArenaTask task;
  std::vector<std::unique_ptr<search::Evaluator>> networks;
  std::vector<std::unique_ptr<search::BatchingEvaluator>> batching;
  std::mutex mutex;
  std::vector<std::string> files;  // spooled games
  std::atomic<bool> done{false};
  util::Status status = util::Ok();
  std::thread thread;
  Clock::time_point started = Clock::now();
};

class Worker {
 public:
  Worker(const WorkerOptions& options, WorkerBackend& backend)
      : options_(options), backend_(backend), keys_(options.run), redis_(options.redis) {}

  util::Result<WorkerReport> Run();

 private:
  void Log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }
  bool Stopping() const { return options_.stop != nullptr && options_.stop->load(); }
  util::Status Poll();
  util::Status LoadConfig();
  util::Status FollowNetwork();
  util::Result<std::string> NetworkFile(const std::string& id);
  util::Status StartSelfplay(const std::string& id, long long generation);
  util::Status ReapSelfplay();
  util::Status HandleTask();
  util::Status ClaimTask();
  util::Status StartTask(const StreamEntry& entry);
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
  WorkerBackend& backend_;
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
  bool resume_own_tasks_ = true;
  std::atomic<bool> pause_{false};
  std::atomic<bool> halt_{false};
  bool queue_full_ = false;
  WorkerReport report_;
  std::atomic<int64_t> selfplay_games_{0}, arena_games_{0};
  std::atomic<int64_t> selfplay_searches_{0}, selfplay_evaluations_{0};
  std::deque<Clock::time_point> recent_games_;  // for games/s
  std::mutex recent_mutex_;
  Clock::time_point started_ = Clock::now();
  Clock::time_point last_heartbeat_{};
  Clock::time_point next_connect_{};
  double retry_seconds_ = 0.5;
  bool was_connected_ = false;
  bool waiting_logged_ = false;
};

util::Result<WorkerReport> Worker::Run() {
  if (util::Status s = ValidateName("run", options_.run); !s.ok()) return s.error_value();
  std::error_code ec;
  fs::create_directories(fs::path(options_.dir) / "models", ec);
  if (ec) {
    return util::Result<WorkerReport>::Error(options_.dir + ": cannot create: " + ec.message());
  }
  if (util::Status s = lock_.Acquire(options_.dir); !s.ok()) {
    return util::Result<WorkerReport>::Error(s.error() +
                                             " (one worker per directory: give each "
                                             "its own --dir)");
  }
  auto id = WorkerId(options_.dir, options_.id);
  if (!id) return id.error_value();
  id_ = id.value();
  report_.id = id_;
  const ClusterConfig defaults;
  auto outbox =
      Outbox::Open((fs::path(options_.dir) / "outbox").string(), defaults.spool_grace_seconds);
  if (!outbox) return outbox.error_value();
  outbox_ = std::move(outbox.value());
  spool_ = std::make_unique<SpoolWriter>(*outbox_);
  if (outbox_->Waiting() > 0) {
    Log("worker " + id_ + ": " + std::to_string(outbox_->Waiting()) +
        " games in the spool from an earlier start; they are sent first");
  }
  util::Status status = util::Ok();
  while (!Stopping() && status.ok()) {
    status = Poll();
    if (status.ok()) status = ReapSelfplay();
    if (status.ok()) status = spool_->status();
    std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_seconds));
  }
  StopAll();
  if (status.ok()) status = spool_->status();  // games written while stopping
  if (!status.ok()) return status.error_value();
  report_.selfplay_games = selfplay_games_;
  report_.selfplay_searches = selfplay_searches_;
  report_.selfplay_evaluations = selfplay_evaluations_;
  report_.arena_games = arena_games_;
  return report_;
}

util::Status Worker::Poll() {
  if (!redis_.Connected() && was_connected_) {
    Log("worker " + id_ + ": lost Redis; playing on, finished games wait in the spool");
    was_connected_ = false;
  }
  if (!redis_.Connected()) {
    if (Clock::now() < next_connect_) return util::Ok();
    util::Status connected = redis_.Connect();
    if (!connected.ok()) {
      if (connected.kind() == util::ErrorKind::kBadInput) return connected;  // refused auth
      next_connect_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(retry_seconds_));
      retry_seconds_ = std::min(5.0, retry_seconds_ * 2);
      return util::Ok();
    }
    retry_seconds_ = 0.5;
    if (!was_connected_) {
      Log("worker " + id_ + ": connected to redis " + options_.redis.endpoint.ToString() +
          ", run " + options_.run);
    }
    was_connected_ = true;
  }
  // Each step below may lose the connection (a failure): the rest waits for the next poll.
  auto step = [&](util::Status s) {
    if (!s.ok() && s.kind() == util::ErrorKind::kFailure && !redis_.Connected()) {
      return util::Status(util::Ok());
    }
    return s;
  };
  if (util::Status s = step(LoadConfig()); !s.ok() || !settings_) return s;
  if (util::Status s = step(FollowNetwork()); !s.ok()) return s;
  if (redis_.Connected()) {
    if (auto sent = outbox_->Flush(redis_, keys_, id_); !sent && redis_.Connected()) {
      return sent.error_value();
    }
  }
  if (util::Status s = step(Heartbeat()); !s.ok()) return s;
  if (util::Status s = step(HandleTask()); !s.ok()) return s;
  if (redis_.Connected()) {
    auto queued = redis_.Command({"XLEN", keys_.SelfplayResults()});
    if (queued && queued.value().IsInteger()) {
      const bool full = queued.value().integer >= settings_->max_queued_games;
      if (full != queue_full_) {
        Log("worker " + id_ +
            (full ? ": the learner's queue is full; self-play paused"
                  : ": the learner's queue has room; self-play goes on"));
      }
      queue_full_ = full;
      UpdatePause();
    }
  }
  return util::Ok();
}

util::Status Worker::LoadConfig() {
  auto text = redis_.Call({"GET", keys_.Config()});
  if (!text) return text.error_value();
  if (text.value().IsNil()) {
    if (!waiting_logged_) {
      Log("worker " + id_ + ": waiting for the learner to publish run " + options_.run);
    }
    waiting_logged_ = true;
    return util::Ok();
  }
  if (settings_ && text.value().str == config_text_) return util::Ok();
  auto settings = backend_.Settings(text.value().str);
  if (!settings) {
    return util::Status::Error("the run's published config: " + settings.error());
  }
  if (settings_) Log("worker " + id_ + ": the run's config changed; self-play restarts with it");
  settings_changed_ = settings_.has_value();
  settings_ = settings.value();
  outbox_->SetGrace(settings_->cluster.spool_grace_seconds);
  config_text_ = text.value().str;
  return util::Ok();
}

util::Result<std::string> Worker::NetworkFile(const std::string& id) {
  const std::string path = (fs::path(options_.dir) / "models" / (id + ".ckpt")).string();
  if (fs::exists(path)) {
    auto bytes = util::ReadFile(path);
    if (bytes && util::Sha256Hex(bytes.value()) == id) return path;
  }
  auto bytes = FetchNetwork(redis_, keys_, id, int64_t{1} << 32);
  if (!bytes) return bytes.error_value();
  if (util::Status s = util::WriteFileAtomic(path, bytes.value()); !s.ok()) return s.error_value();
  return path;
}

util::Status Worker::FollowNetwork() {
  auto current = ReadCurrent(redis_, keys_);
  if (!current) return current.error_value();
  if (!current.value()) return util::Ok();  // nothing published yet
  const CurrentNetwork& c = *current.value();
  if (!selfplay_.empty() && selfplay_.back()->network == c.id && !settings_changed_) {
    return util::Ok();
  }
  settings_changed_ = false;
  return StartSelfplay(c.id, c.generation);
}

util::Status Worker::StartSelfplay(const std::string& id, long long generation) {
  auto path = NetworkFile(id);
  if (!path) return path.error_value();
  auto evaluator = backend_.Load(path.value());
  if (!evaluator) return util::Prefixed(evaluator.error_value(), "network " + id + ": ");
  for (auto& run : selfplay_) run->drain = true;  // their games in flight finish
  auto run = std::make_unique<SelfplayRun>();
  run->network = id;
  run->generation = generation;
  run->settings = *settings_;
  run->evaluator = std::move(evaluator.value());
  SelfplayRun* r = run.get();
  Log("worker " + id_ + ": self-play with gen " + std::to_string(generation) + " (network " +
      id.substr(0, 12) + ")");
  r->thread = std::thread([this, r] {
    selfplay::SelfplayJob job;
    job.rules = r->settings.rules;
    job.size = r->settings.size;
    job.games = INT64_MAX;
    job.generation = RandomWord();  // distinct game seeds on every worker and start
    selfplay::SelfplayHooks hooks;
    hooks.stop = &halt_;
    hooks.drain = &r->drain;
    hooks.pause = &pause_;
    hooks.on_game = [this, r](selfplay::FinishedGame&& g) {
      Entry e;
      e.kind = EntryKind::kSelfplay;
      e.game_id = RandomGameId();
      e.worker = id_;
      e.network = r->network;
      e.game.rules = r->settings.rules;
      e.game.size = r->settings.size;
      e.game.samples = std::move(g.samples);
      g.record.id = e.game_id;
      e.game.games.push_back(std::move(g.record));
      return SpoolGame(EntryKind::kSelfplay, std::move(e), nullptr);
    };
    hooks.progress_seconds = 0.25;
    hooks.progress = [this, r](const selfplay::SelfplayStats& s) { CountSearches(*r, s); };
    auto result = selfplay::RunSelfplay(r->settings.selfplay, r->settings.search,
                                        r->settings.batching, *r->evaluator, job, hooks);
    if (result) CountSearches(*r, result.value());
    if (!result) r->status = result.error_value();
    r->done = true;
  });
  selfplay_.push_back(std::move(run));
  return util::Ok();
}

util::Status Worker::SpoolGame(EntryKind kind, Entry entry, TaskRun* task) {
  auto bytes = EncodeEntry(entry);
  if (!bytes) return bytes.error_value();
  if (task == nullptr) {
    spool_->Add(kind, std::move(bytes.value()));
  } else {  // the task is acknowledged once the files of all its games are sent
    auto name = outbox_->Put(kind, bytes.value());
    if (!name) return name.error_value();
    std::lock_guard<std::mutex> lock(task->mutex);
    task->files.push_back(name.value());
  }
  (kind == EntryKind::kArena ? arena_games_ : selfplay_games_)++;
  std::lock_guard<std::mutex> lock(recent_mutex_);
  recent_games_.push_back(Clock::now());
  return util::Ok();
}

util::Status Worker::ReapSelfplay() {
  for (auto it = selfplay_.begin(); it != selfplay_.end();) {
    SelfplayRun& r = **it;
    if (!r.done) {
      ++it;
      continue;
    }
    r.thread.join();
    if (!r.status.ok() && !halt_) {
      return util::Prefixed(r.status.error_value(), "self-play with network " + r.network + ": ");
    }
    it = selfplay_.erase(it);
  }
  return util::Ok();
}

util::Status Worker::Heartbeat() {
  const double every = settings_->cluster.heartbeat_seconds;
  if (util::SecondsSince(last_heartbeat_) < every) return util::Ok();
  last_heartbeat_ = Clock::now();
  double rate = 0;
  {
    std::lock_guard<std::mutex> lock(recent_mutex_);
    while (!recent_games_.empty() && util::SecondsSince(recent_games_.front()) > 60)
      recent_games_.pop_front();
    rate = static_cast<double>(recent_games_.size()) /
           std::min(60.0, std::max(1.0, util::SecondsSince(started_)));
  }
  nlohmann::json j;
  j["worker"] = id_;
  j["host"] = HostName();
  j["pid"] = static_cast<long long>(::getpid());
  j["state"] = task_               ? "arena task"
               : queue_full_       ? "paused (queue full)"
               : selfplay_.empty() ? "waiting"
                                   : "self-play";
  j["generation"] = selfplay_.empty() ? -1 : selfplay_.back()->generation;
  j["selfplay_games"] = selfplay_games_.load();
  j["selfplay_searches"] = selfplay_searches_.load();
  j["arena_games"] = arena_games_.load();
  j["tasks"] = report_.tasks;
  j["games_per_second"] = rate;
  j["spool"] = outbox_->Waiting() + outbox_->Unconfirmed();
  j["threads"] = settings_->selfplay.threads;
  j["uptime_seconds"] = util::SecondsSince(started_);
  const long long ttl_ms = static_cast<long long>(every * 3000);
  auto set = redis_.Call({"SET", keys_.Worker(id_), j.dump(), "PX", std::to_string(ttl_ms)});
  if (!set) return set.error_value();
  if (task_ && !task_->done) {  // the task's idle time restarts: it is not taken over
    auto touch =
        redis_.Command({"XCLAIM", keys_.Tasks(), kWorkerGroup, id_, "0", task_->id, "JUSTID"});
    if (!touch) return touch.error_value();
  }
  return util::Ok();
}

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
  if (util::Status s = Ack(redis_, keys_.Tasks(), kWorkerGroup, {task_->id}); !s.ok()) return s;
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
  std::vector<StreamEntry> got;
  if (resume_own_tasks_) {  // a restarted worker's own pending task first
    auto own = ReadGroup(redis_, keys_.Tasks(), kWorkerGroup, id_, 1, 0, /*pending=*/true);
    if (!own) return own.error_value();
    got = own.value();
    if (got.empty()) resume_own_tasks_ = false;
  }
  if (got.empty()) {
    const long long idle_ms =
        static_cast<long long>(settings_->cluster.task_timeout_seconds * 1000);
    auto claimed = AutoClaim(redis_, keys_.Tasks(), kWorkerGroup, id_, idle_ms, "0-0", 1);
    if (!claimed) return claimed.error_value();
    got = claimed.value().entries;
    if (!got.empty()) Log("worker " + id_ + ": took over task " + got.front().id);
  }
  if (got.empty()) {
    auto fresh = ReadGroup(redis_, keys_.Tasks(), kWorkerGroup, id_, 1, 0, /*pending=*/false);
    if (!fresh) return fresh.error_value();
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
  if (!task) {
    Log("worker " + id_ + ": task " + entry.id + " dropped: " + task.error());
    return Ack(redis_, keys_.Tasks(), kWorkerGroup, {entry.id});
  }
  auto run = std::make_unique<TaskRun>();
  run->id = entry.id;
  run->task = task.value();
  search::BatchingConfig batching = settings_->batching;
  batching.max_wait_us = 0;  // the arena hands over whole batches from one thread
  arena::ArenaPlayer players[2];
  std::map<std::string, search::Evaluator*> loaded;
  for (int side = 0; side < 2; ++side) {
    const TaskPlayer& p = side == 0 ? run->task.a : run->task.b;
    arena::ArenaPlayer& out = players[side];
    out.name = p.name;
    out.spec.kind = p.kind;
    out.spec.budget = p.budget;
    out.search = settings_->search;
    if (p.kind != arena::PlayerKind::kMcts) continue;
    if (!loaded.count(p.network)) {
      auto path = NetworkFile(p.network);
      auto evaluator = path ? backend_.Load(path.value())
                            : util::Result<std::unique_ptr<search::Evaluator>>(path.error_value());
      if (!evaluator) {
        if (!redis_.Connected()) return evaluator.error_value();  // taken again later
        Log("worker " + id_ + ": task " + entry.id + " dropped: network " + p.network + ": " +
            evaluator.error());
        return Ack(redis_, keys_.Tasks(), kWorkerGroup, {entry.id});
      }
      run->networks.push_back(std::move(evaluator.value()));
      run->batching.push_back(
          std::make_unique<search::BatchingEvaluator>(*run->networks.back(), batching));
      loaded[p.network] = run->batching.back().get();
    }
    out.spec.checkpoint = p.network;
    out.evaluator = loaded[p.network];
  }
  arena::ArenaConfig config = settings_->arena;
  config.seed = run->task.seed;
  config.opening_turns = run->task.opening_turns;
  if (std::string e =
          arena::ValidateArena(players[0], players[1], run->task.rules, run->task.size, config);
      !e.empty()) {
    Log("worker " + id_ + ": task " + entry.id + " dropped: " + e);
    return Ack(redis_, keys_.Tasks(), kWorkerGroup, {entry.id});
  }
  Log("worker " + id_ + ": task " + entry.id + ": " + run->task.match + ", " +
      std::to_string(run->task.games.size()) + " games");
  TaskRun* r = run.get();
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
  task_ = std::move(run);
  UpdatePause();
  return util::Ok();
}

void Worker::StopAll() {
  halt_ = true;
  for (auto& run : selfplay_) {
    if (run->thread.joinable()) run->thread.join();
  }
  selfplay_.clear();
  if (task_ && task_->thread.joinable()) task_->thread.join();
  task_.reset();
  spool_->Close();  // finished games go to the spool before the last flush
  if (redis_.Connected()) {
    outbox_->Flush(redis_, keys_, id_);
    redis_.Command({"DEL", keys_.Worker(id_)});
  }
}

}  // namespace

util::Result<WorkerReport> RunWorker(const WorkerOptions& options, WorkerBackend& backend) {
  Worker worker(options, backend);
  return worker.Run();
}

}  // namespace veletas::cluster
