// The worker's self-play: a run per network on its own thread (a new network starts a new
// run while the old one drains), the network files, and spooling finished games.
#include <climits>
#include <filesystem>

#include "cluster/transport/networks.h"
#include "cluster/worker/worker_id.h"
#include "cluster/worker/worker_loop.h"
#include "selfplay/selfplay_engine.h"
#include "util/atomic_file.h"
#include "util/sha256.h"

namespace veletas::cluster {

namespace fs = std::filesystem;

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
  auto evaluator = loader_.Load(path.value());
  if (!evaluator) return util::Prefixed(evaluator.error_value(), "network " + id + ": ");
  for (auto& run : selfplay_) run->drain = true;  // their games in flight finish
  auto run = std::make_unique<SelfplayRun>();
  run->network = id;
  run->generation = generation;
  run->settings = *settings_;
  run->evaluator = std::move(evaluator.value());
  run->precision = loader_.LastPrecision();
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
      e.precision = r->precision;
      e.game.rules = r->settings.rules;
      e.game.size = r->settings.size;
      e.game.samples = std::move(g.samples);
      e.summaries = std::move(g.summaries);
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
  recent_games_.push_back(util::SteadyClock::now());
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

}  // namespace veletas::cluster
