// The worker's loop: its directory, lock and id, the connection to Redis, the run's config,
// and stopping (the rest of Worker is in worker_selfplay.cpp, worker_heartbeat.cpp and
// worker_tasks.cpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/worker_registry.h"
#include "cluster/worker/worker_id.h"
#include "cluster/worker/worker_loop.h"
#include "util/names.h"

namespace veletas::cluster {

namespace fs = std::filesystem;

util::Result<WorkerReport> Worker::Run() {
  if (util::Status s = util::ValidateName(options_.run, "run", cluster::kMaxNameLength); !s.ok())
    return s.error_value();
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
  auto id = IdOfUser();
  if (!id) return id.error_value();
  id_ = id.value();
  report_.id = id_;
  auto outbox = Outbox::Open((fs::path(options_.dir) / "outbox").string());
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

void Worker::Trouble(const util::Error& error) {
  const std::string why = RedisTrouble(redis_, error);
  if (why != trouble_) {
    Log("worker " + id_ + ": " + why + " (" + error.message.substr(0, 200) + "); playing on, " +
        std::to_string(outbox_->Waiting()) + " finished games wait in the spool; trying again");
  }
  trouble_ = why;
  next_connect_ =
      util::SteadyClock::now() + std::chrono::duration_cast<util::SteadyClock::duration>(
                                     std::chrono::duration<double>(retry_seconds_));
  retry_seconds_ = std::min(kMaxRetrySeconds, retry_seconds_ * 2);
}

util::Status Worker::Poll() {
  if (!redis_.Connected() && was_connected_) {
    Log("worker " + id_ + ": lost Redis; playing on, finished games wait in the spool");
    was_connected_ = false;
  }
  // Backing off after Redis refused (full, at its connection limit) or could not be reached.
  if (util::SteadyClock::now() < next_connect_) return util::Ok();
  if (!redis_.Connected()) {
    util::Status connected = redis_.Connect();
    if (!connected.ok()) {
      // Refused credentials (WRONGPASS) stop the worker; anything else is waited for.
      if (connected.kind() == util::ErrorKind::kBadInput) return connected;
      Trouble(connected.error_value());
      return util::Ok();
    }
    if (!was_connected_) {
      Log("worker " + id_ + ": connected to redis " + options_.redis.endpoint.ToString() +
          ", run " + options_.run);
    }
    was_connected_ = true;
    // Without a user of its own (a trusted Redis without ACL users) a worker registers
    // itself; with one, `veletas cluster add-worker` registered it.
    if (options_.redis.auth.user.empty()) {
      if (util::Status s = RegisterWorker(redis_, keys_, id_); !s.ok() && !redis_.Connected()) {
        return util::Ok();
      }
    }
  }
  // Each step below may lose the connection, or be refused by a full Redis (a failure): the
  // rest waits for the next poll, after a backoff.
  bool refused = false;
  auto step = [&](util::Status s) {
    if (!s.ok() && s.kind() == util::ErrorKind::kFailure && Unavailable(redis_, s.error_value())) {
      if (!refused) Trouble(s.error_value());
      refused = true;
      return util::Status(util::Ok());
    }
    return s;
  };
  if (util::Status s = step(LoadConfig()); !s.ok() || !settings_ || refused) return s;
  if (util::Status s = step(FollowNetwork()); !s.ok() || refused) return s;
  if (redis_.Connected()) {
    if (auto sent = outbox_->Flush(redis_, keys_, id_); !sent) {
      if (util::Status s = step(sent.error_value()); !s.ok() || refused) return s;
    }
  }
  if (util::Status s = step(Heartbeat()); !s.ok()) return s;
  if (util::Status s = step(HandleTask()); !s.ok() || refused) return s;
  if (!trouble_.empty())
    Log("worker " + id_ + ": Redis takes commands again (" + trouble_ + " before)");
  trouble_.clear();
  retry_seconds_ = kMinRetrySeconds;
  if (redis_.Connected()) {
    // The learner's count of all workers' queued games (while it is there), and this
    // worker's own stream: either full pauses self-play.
    auto queued =
        RedisBatch().GetValue(keys_.Queued()).StreamLength(keys_.WorkerSelfplay(id_)).Send(redis_);
    if (queued && queued.value()[1].IsInteger()) {
      const RedisValue& all = queued.value()[0];
      const long long total = all.IsString() ? std::atoll(all.str.c_str()) : 0;
      const bool full = std::max(total, queued.value()[1].integer) >= settings_->max_queued_games;
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
  auto text = GetValue(redis_, keys_.Config());
  if (!text) return text.error_value();
  if (!text.value()) {
    if (!waiting_logged_) {
      Log("worker " + id_ + ": waiting for the learner to publish run " + options_.run);
    }
    waiting_logged_ = true;
    return util::Ok();
  }
  if (settings_ && *text.value() == config_text_) return util::Ok();
  auto settings = loader_.Settings(*text.value());
  if (!settings) {
    return util::Status::Error("the run's published config: " + settings.error());
  }
  if (settings_) Log("worker " + id_ + ": the run's config changed; self-play restarts with it");
  settings_changed_ = settings_.has_value();
  settings_ = settings.value();
  config_text_ = *text.value();
  return util::Ok();
}

util::Result<std::string> Worker::IdOfUser() const {
  const std::string& user = options_.redis.auth.user;
  if (user.rfind(keys_.prefix, 0) != 0) return WorkerId(options_.dir, options_.id);
  // A worker's own Redis user: its name is the worker id (its streams are named by it).
  const std::string name = user.substr(keys_.prefix.size());
  if (!options_.id.empty() && options_.id != name) {
    return util::Result<std::string>::Error("--id " + options_.id + " differs from the worker \"" +
                                            name + "\" of Redis user " + user +
                                            " (leave --id out: the user names the worker)");
  }
  return name;
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
    DeleteKeys(redis_, {keys_.Worker(id_)});
  }
}

util::Result<WorkerReport> RunWorker(const WorkerOptions& options, RunLoader& loader) {
  Worker worker(options, loader);
  return worker.Run();
}

}  // namespace veletas::cluster
