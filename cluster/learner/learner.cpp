#include "cluster/learner/learner.h"
#include "util/names.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "cluster/learner/remote_arena.h"
#include "cluster/transport/networks.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/worker_registry.h"
#include "data/excluded_games.h"
#include "util/clock.h"
#include "util/host.h"
#include "util/json.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

constexpr long long kLockMs = 30'000;
constexpr double kLockRefreshSeconds = 5;
// Refreshes the lock (and its status) only while it holds this learner's token.
// (and takes it again when it expired, e.g. while Redis was down), and puts the run's config
// back if a Redis restarted without its data lost it.
constexpr char kRefreshScript[] =
    "local v = redis.call('get', KEYS[1]) "
    "if (not v) or string.find(v, ARGV[1], 1, true) then "
    "  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) "
    "  redis.call('set', KEYS[2], ARGV[4], 'NX') return 1 end "
    "return 0";
// Deletes the lock only while it holds this learner's token.
constexpr char kReleaseScript[] =
    "local v = redis.call('get', KEYS[1]) if v and string.find(v, ARGV[1], 1, "
    "true) then return redis.call('del', KEYS[1]) end return 0";

}  // namespace

Learner::Learner(LearnerOptions options)
    : options_(std::move(options)), keys_(options_.run), redis_(options_.redis) {}

Learner::~Learner() {
  stop_ = true;
  if (lock_thread_.joinable()) lock_thread_.join();
  // Let a successor start at once.
  RunScript(redis_, kReleaseScript, {keys_.Learner()}, {token_});
}

util::Result<std::unique_ptr<Learner>> Learner::Start(LearnerOptions options) {
  if (util::Status s = util::ValidateName(options.run, "cluster run name", cluster::kMaxNameLength);
      !s.ok()) {
    return s.error_value();
  }
  // No stream field longer than an entry may be is ever copied out of a reply.
  options.redis.max_string_bytes =
      static_cast<size_t>(std::max<int64_t>(options.cluster.max_entry_bytes, 1 << 20)) + 1;
  // Its reads may hold large replies: never closed to make room for other connections.
  options.redis.no_evict = true;
  std::unique_ptr<Learner> l(new Learner(std::move(options)));
  if (util::Status s = l->redis_.Connect(); !s.ok()) {
    // At its connection limit (a worker holding every connection): waited for; a Redis that
    // cannot be reached at all is an error at the start.
    if (RedisTrouble(l->redis_, s.error_value()).find("connection limit") == std::string::npos) {
      return s.error_value();
    }
    if (util::Status again = l->Retrying([&] { return l->redis_.Connect(); }); !again.ok()) {
      return again.error_value();
    }
  }
  // A full Redis (or one at its connection limit) is waited for, as an unreachable one is.
  if (util::Status s = l->Retrying([&] { return l->TakeLock(); }); !s.ok()) return s.error_value();
  l->SayMissingRights();
  if (util::Status s = l->Retrying(
          [&] { return SetValue(l->redis_, l->keys_.Config(), l->options_.config_text); });
      !s.ok()) {
    return s.error_value();
  }
  auto epoch = l->Retrying([&] {
    return SetValueIfAbsent(l->redis_, l->keys_.Epoch(), std::to_string(std::time(nullptr)));
  });
  if (!epoch) return epoch.error_value();
  l->session_ =
      std::make_unique<IngestSession>(l->redis_, l->keys_, l->options_.cluster, l->options_.log);
  Learner* self = l.get();
  SpotCheckerOptions spot;
  spot.fraction = l->options_.cluster.spot_check_fraction;
  spot.tolerance.policy_tv = l->options_.cluster.spot_check_policy_tv;
  spot.tolerance.value = l->options_.cluster.spot_check_value;
  spot.search = l->options_.search;
  spot.resign = selfplay::ResignCheckSettingsOf(l->options_.selfplay,
                                                l->options_.cluster.spot_check_resign_margin);
  if (l->options_.load_network) {
    spot.load = [self](const std::string& id, std::optional<model::InferencePrecision> precision) {
      return self->CheckNetwork(id, precision);
    };
  }
  if (!l->options_.run_dir.empty()) {
    spot.unverified_file = l->options_.run_dir + "/" + std::string(kUnverifiedGamesFile);
  }
  l->checker_ = std::make_unique<SpotChecker>(std::move(spot), std::random_device()());
  if (util::Status s = l->checker_->LoadUnverified(); !s.ok()) return s.error_value();
  auto quarantined = l->Retrying([&] { return HashGetAll(l->redis_, l->keys_.Quarantined()); });
  if (!quarantined) return quarantined.error_value();
  for (const auto& [worker, why] : quarantined.value()) l->quarantined_[worker] = why;
  l->session_->OnDataLost([self] { return self->Republish(); });
  l->guard_ = std::make_unique<RedisGuard>(l->keys_);
  RedisOptions lock_options = l->options_.redis;
  lock_options.max_string_bytes = 0;  // CLIENT LIST of many connections (RedisGuard)
  l->lock_redis_ = std::make_unique<RedisClient>(lock_options);
  l->lock_connected_ = l->lock_redis_->Connect().ok();
  l->session_->Every([self] { self->GuardFromMainThread(); });
  l->arena_ = std::make_unique<RemoteArena>(
      *l->session_, [self](const std::string& checkpoint, long long generation) {
        return self->Publish(checkpoint, generation, false);
      });
  l->lock_thread_ = std::thread([self] { self->KeepLock(); });
  return l;
}

util::Status Learner::TakeLock() {
  std::random_device device;
  token_ = std::to_string(device()) + "-" + std::to_string(device());
  std::error_code ec;
  const std::string dir = fs::weakly_canonical(options_.run_dir, ec).string();
  nlohmann::json j = {{"token", token_}, {"host", util::HostName()},    {"pid", ::getpid()},
                      {"run_dir", dir},  {"since", std::time(nullptr)}, {"status", "starting"}};
  const std::string value = j.dump();
  auto taken = SetValueIfAbsent(redis_, keys_.Learner(), value, kLockMs);
  if (!taken) return taken.error_value();
  if (taken.value()) return util::Ok();
  auto holder = GetValue(redis_, keys_.Learner());
  if (!holder) return holder.error_value();
  const auto parsed = util::ParseJson(holder.value().value_or(""), "the learner lock");
  const nlohmann::json h = parsed ? parsed.value() : nlohmann::json();
  const std::string host = util::JsonValueOr<std::string>(h, "host", "?");
  const std::string holder_dir = util::JsonValueOr<std::string>(h, "run_dir", "?");
  // The same run directory on the same host: an earlier session of this run, dead since this
  // process holds the run directory's lock.
  if (host == util::HostName() && holder_dir == dir) {
    return SetValueWithTtl(redis_, keys_.Learner(), value, kLockMs);
  }
  return util::Status::Error("run \"" + options_.run + "\" in redis " +
                             options_.redis.endpoint.ToString() +
                             " is served by another learner (" + host + ", pid " +
                             std::to_string(util::JsonValueOr<long long>(h, "pid", 0)) + ", " +
                             holder_dir + "); stop it, or give this run another cluster.run name");
}

void Learner::SayMissingRights() {
  auto missing = MissingLearnerRights(redis_);
  if (!missing || missing.value().empty() || !options_.log) return;
  std::string rights;
  for (const std::string& r : missing.value()) rights += (rights.empty() ? "" : " ") + r;
  options_.log("  cluster: the learner's Redis user " + options_.redis.auth.user + " lacks " +
               rights +
               " (a users.acl written before these rights): refusals are not counted, workers' "
               "connections not limited, or its connections not kept from eviction; on the "
               "Redis machine run `veletas cluster upgrade-acl --run " +
               options_.run +
               " --dir DIR --redis URL` (users.acl rewritten in place, passwords kept, applied "
               "to the running server), then restart the learner");
}

void Learner::GuardFromMainThread() {
  if (!lock_connected_ && util::SecondsSince(last_guard_) >= kLockRefreshSeconds) {
    last_guard_ = util::SteadyClock::now();
    guard_->Check(redis_);
  }
  if (!options_.log) return;
  for (const std::string& line : guard_->TakeNotes()) options_.log(line);
}

void Learner::KeepLock() {
  RedisClient& redis = *lock_redis_;
  auto last = util::SteadyClock::now();
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (util::SecondsSince(last) < kLockRefreshSeconds) {
      continue;
    }
    last = util::SteadyClock::now();
    std::error_code ec;
    nlohmann::json j = {{"token", token_},
                        {"host", util::HostName()},
                        {"pid", ::getpid()},
                        {"run_dir", fs::weakly_canonical(options_.run_dir, ec).string()},
                        {"updated", std::time(nullptr)}};
    {
      std::lock_guard<std::mutex> lock(status_mutex_);
      j["status"] = status_;
    }
    RunScript(redis, kRefreshScript, {keys_.Learner(), keys_.Config()},
              {token_, j.dump(), std::to_string(kLockMs), options_.config_text});
    // The workers' backpressure: the games queued in all their streams.
    if (auto queued = QueuedSelfplay(redis, keys_)) {
      // Entries held back over their worker's share do not pause the others.
      const long long n = std::max<long long>(0, queued.value() - held_back_.load());
      SetValueWithTtl(redis, keys_.Queued(), std::to_string(n), kLockMs);
    }
    guard_->Check(redis);
    lock_connected_ = redis.Connected();
  }
}

void Learner::SetStatus(const std::string& status) {
  std::lock_guard<std::mutex> lock(status_mutex_);
  status_ = status;
}

arena::RemoteGames& Learner::Arena() { return *arena_; }

template <class F>
auto Learner::Retrying(F f) -> decltype(f()) {
  bool logged = false;
  for (;;) {
    auto r = f();
    if (r || r.kind() == util::ErrorKind::kBadInput || !Unavailable(redis_, r.error_value())) {
      return r;
    }
    if (!logged && options_.log) {
      options_.log("  cluster: " + RedisTrouble(redis_, r.error_value()) + ": " + r.error() +
                   "; waiting for Redis");
    }
    logged = true;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

util::Result<std::string> Learner::Publish(const std::string& checkpoint, long long generation,
                                           bool current) {
  auto known = published_.find(checkpoint);
  if (known != published_.end() && !current) return known->second.id;
  auto bytes = options_.network_bytes(checkpoint);
  if (!bytes) return bytes.error_value();
  auto id =
      Retrying([&] { return PublishNetwork(redis_, keys_, bytes.value(), generation, current); });
  if (id) published_[checkpoint] = {id.value(), generation};
  if (id && current) current_ = checkpoint;
  return id;
}

util::Status Learner::Republish() {
  for (const auto& [checkpoint, p] : published_) {
    auto bytes = options_.network_bytes(checkpoint);
    if (!bytes) return bytes.error_value();
    auto id = PublishNetwork(redis_, keys_, bytes.value(), p.generation, checkpoint == current_);
    if (!id) return id.error_value();
  }
  if (util::Status s = SetValue(redis_, keys_.Config(), options_.config_text); !s.ok()) return s;
  for (const auto& [worker, why] : quarantined_) {
    if (util::Status s = HashSet(redis_, keys_.Quarantined(), {{worker, why}}); !s.ok()) return s;
  }
  return util::Ok();
}

util::Status Learner::Quarantine(const std::string& worker, const std::string& why) {
  int64_t excluded = 0;
  for (const auto& [dir, ids] : checker_->TakeUnverified(worker)) {
    if (util::Status s = data::AddExcludedGames(dir, ids); !s.ok()) return s;
    excluded += static_cast<int64_t>(ids.size());
  }
  if (why.empty()) return util::Ok();  // quarantined already: only its newest games
  quarantined_[worker] = why;
  auto set = Retrying([&] { return HashSet(redis_, keys_.Quarantined(), {{worker, why}}); });
  if (!set) return set.error_value();
  if (options_.log) {
    options_.log("  cluster: worker " + worker + " quarantined (" + why + "); its " +
                 std::to_string(excluded) +
                 " games since its last passed check leave the training window and its further "
                 "games are refused");
  }
  return util::Ok();
}

util::Result<std::unique_ptr<search::Evaluator>> Learner::CheckNetwork(
    const std::string& id, std::optional<model::InferencePrecision> precision) {
  for (const auto& [checkpoint, p] : published_) {
    if (p.id == id) return options_.load_network(checkpoint, precision);
  }
  return std::unique_ptr<search::Evaluator>();
}

util::Result<std::set<std::string>> Learner::Networks() {
  auto keys = Retrying([&] { return HashKeys(redis_, keys_.Models()); });
  if (!keys) return keys.error_value();
  return std::set<std::string>(keys.value().begin(), keys.value().end());
}

util::Status Learner::AddEarlierGames(const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (!earlier_dirs_.insert(dir).second) continue;
    auto ids = ReadGameIds(dir, /*complete=*/true);
    if (!ids) return ids.error_value();
    earlier_.insert(ids.value().begin(), ids.value().end());
  }
  return util::Ok();
}

}  // namespace veletas::cluster
