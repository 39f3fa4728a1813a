#include "cluster/tools/cluster_bench.h"

#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "cluster/learner/learner.h"
#include "cluster/learner/validate.h"
#include "cluster/transport/entry.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/networks.h"
#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/worker_registry.h"
#include "data/sample_file.h"
#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "util/clock.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

// `n` games with the run's self-play settings and a hash evaluator (8 simulations: the
// entries have the samples, policies and records of real games of this board; only their
// play is weak).
util::Result<std::vector<selfplay::FinishedGame>> RecordGames(const RunSettings& s, int n) {
  selfplay::SelfplayConfig sp = s.selfplay;
  sp.full_simulations = std::min(sp.full_simulations, 8);
  sp.cheap_simulations = std::min(sp.cheap_simulations, 4);
  sp.threads = 2;
  search::HashEvaluator evaluator(7);
  selfplay::SelfplayJob job;
  job.rules = s.rules;
  job.size = s.size;
  job.games = n;
  return selfplay::PlayGamesInMemory(sp, s.search, s.batching, evaluator, job);
}

long long UsedMemory(RedisClient& redis) {
  auto info = ServerInfo(redis, "memory");
  if (!info) return -1;
  const auto used = info.value().find("used_memory");
  return used == info.value().end() ? -1 : std::atoll(used->second.c_str());
}

// Entries/s of XADDs of `entries`: one at a time (a round trip each) and in batches of 64.
std::pair<double, double> AddRates(RedisClient& redis, const std::string& key,
                                   const std::vector<std::string>& entries) {
  auto start = util::SteadyClock::now();
  for (const std::string& e : entries) AddEntry(redis, key, {{"e", e}});
  const double single = static_cast<double>(entries.size()) / util::SecondsSince(start);
  start = util::SteadyClock::now();
  for (size_t at = 0; at < entries.size(); at += 64) {
    RedisBatch batch;
    for (size_t i = at; i < std::min(entries.size(), at + 64); ++i) {
      batch.StreamAdd(key, {{"e", entries[i]}});
    }
    batch.Send(redis);
  }
  const double piped = static_cast<double>(entries.size()) / util::SecondsSince(start);
  DeleteKeys(redis, {key});
  return {single, piped};
}

// The recorded games as self-play entries of network `network`, with their mean size and
// searches per game in `f`.
util::Result<std::vector<std::string>> EncodeEntries(
    const RunSettings& s, const std::vector<selfplay::FinishedGame>& games,
    const std::string& network, IngestFigures& f) {
  std::vector<std::string> entries;
  double bytes = 0;
  for (const auto& g : games) {
    f.searches_per_game += static_cast<double>(g.full_decisions + g.cheap_decisions) /
                           static_cast<double>(games.size());
    Entry e;
    e.game_id = RandomGameId();
    e.worker = "bench";
    e.network = network;
    e.game.rules = s.rules;
    e.game.size = s.size;
    e.game.samples = g.samples;
    e.summaries = g.summaries;
    data::GameRecord r = g.record;
    r.id = e.game_id;
    e.game.games.push_back(r);
    auto b = EncodeEntry(e);
    if (!b) return util::Error{b.error(), util::ErrorKind::kFailure};
    bytes += static_cast<double>(b.value().size());
    entries.push_back(std::move(b.value()));
  }
  f.bytes_per_entry = bytes / static_cast<double>(entries.size());
  return entries;
}

// Entries/s of decoding and checking `entries` alone, for the breakdown.
util::Result<double> ValidateRate(const RunSettings& s, const std::vector<std::string>& entries) {
  const auto start = util::SteadyClock::now();
  for (const std::string& e : entries) {
    auto d = DecodeEntry(e, s.cluster.max_entry_bytes);
    if (!d || !ValidateSelfplayGame(d.value().game, s.rules, s.size).ok()) {
      return util::Result<double>::Failure("a recorded game does not validate");
    }
  }
  return static_cast<double>(entries.size()) / util::SecondsSince(start);
}

// Queues `entries` for a learner of a run of its own and times its collection of them, with
// the Redis memory they took; then the appendfsync comparison.
util::Status TimeLearner(const RunSettings& s, const RedisOptions& redis_options,
                         const std::string& work, const std::vector<std::string>& entries,
                         const std::string& network, IngestFigures& f) {
  const int games = static_cast<int>(entries.size());
  RedisClient redis(redis_options);
  LearnerOptions o;
  o.redis = redis_options;
  o.run = "bench-" + std::to_string(::getpid());
  o.cluster = s.cluster;
  o.config_text = "bench";
  o.run_dir = work;
  o.network_bytes = [](const std::string&) { return util::Result<std::string>(""); };
  auto learner = Learner::Start(o);
  if (!learner) return learner.error_value();
  const RunKeys keys(o.run);
  if (util::Status r = RegisterWorker(redis, keys, "bench"); !r.ok()) return r;
  const long long before = UsedMemory(redis);
  for (size_t at = 0; at < entries.size(); at += 64) {
    RedisBatch batch;
    for (size_t i = at; i < std::min(entries.size(), at + 64); ++i) {
      batch.StreamAdd(keys.WorkerSelfplay("bench"), {{"e", entries[i]}});
    }
    if (auto r = batch.Send(redis); !r) return util::Error{r.error(), util::ErrorKind::kFailure};
  }
  f.memory_per_1000 =
      static_cast<double>(UsedMemory(redis) - before) * 1000.0 / static_cast<double>(games);
  CollectRequest req;
  req.dir.dir = work + "/samples";
  req.dir.games = games;
  req.dir.games_per_file = s.selfplay.games_per_file;
  req.dir.rules = s.rules;
  req.dir.size = s.size;
  req.accepted = req.known = {network};
  const auto start = util::SteadyClock::now();
  auto report = learner.value()->CollectSelfplay(req);
  if (!report) return util::Error{report.error(), util::ErrorKind::kFailure};
  f.entries_per_second = static_cast<double>(games) / util::SecondsSince(start);
  // appendfsync: the same entries added with each setting.
  auto fsync = ConfigGet(redis, "appendfsync");
  if (fsync && fsync.value()) {
    const std::string was = *fsync.value();
    const std::string key = keys.prefix + "fsync-bench";
    ConfigSet(redis, "appendfsync", "everysec");
    f.everysec = AddRates(redis, key, entries);
    ConfigSet(redis, "appendfsync", "always");
    f.always = AddRates(redis, key, entries);
    ConfigSet(redis, "appendfsync", was);
  }
  for (const std::string& k :
       {keys.WorkerSelfplay("bench"), keys.WorkerArena("bench"), keys.Workers(), keys.Task("bench"),
        keys.Stats(), keys.Rejections(), keys.Config()}) {
    DeleteKeys(redis, {k});
  }
  return util::Ok();
}

// Starts a thread that waits `warmup` seconds, counts `counter` for `seconds` into `speed`,
// then sets `stop`.
std::thread TimeWindow(const std::atomic<int64_t>& counter, double warmup, double seconds,
                       std::atomic<bool>& stop, SelfplaySpeed& speed) {
  return std::thread([&counter, warmup, seconds, &stop, &speed] {
    std::this_thread::sleep_for(std::chrono::duration<double>(warmup));
    const int64_t at_warmup = counter;
    const auto start = util::SteadyClock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    speed.evaluations += static_cast<double>(counter - at_warmup);
    speed.seconds += util::SecondsSince(start);
    stop = true;
  });
}

// One round of self-play in this process, files written as the pipeline writes them.
util::Status LocalRound(const WorkerBench& b, const std::string& dir, int round, double warmup,
                        SelfplaySpeed& speed) {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> evaluations{0};
  selfplay::SelfplayJob job;
  job.rules = b.settings.rules;
  job.size = b.settings.size;
  job.games = b.local_games;
  job.out_dir = dir;
  job.generation = static_cast<uint64_t>(round);
  selfplay::SelfplayHooks hooks;
  hooks.stop = &stop;
  hooks.progress_seconds = 0.25;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    evaluations = static_cast<int64_t>(s.evaluations);
  };
  std::thread timer = TimeWindow(evaluations, warmup, b.seconds, stop, speed);
  auto local = selfplay::RunSelfplay(b.settings.selfplay, b.settings.search, b.settings.batching,
                                     *b.evaluator, job, hooks);
  timer.join();
  if (!local) return util::Prefixed(local.error_value(), "local self-play: ");
  speed.AddRound(local.value().searches, local.value().evaluations, local.value().games_finished);
  return util::Ok();
}

// One round of one worker of run `run` (through its spool and Redis).
util::Status WorkerRound(const WorkerBench& b, const std::string& run, double warmup,
                         SelfplaySpeed& speed) {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> evaluations{0};
  WorkerOptions o;
  o.redis = b.redis;
  o.run = run;
  o.dir = b.work + "/worker";
  o.id = "bench";
  o.stop = &stop;
  o.evaluations = &evaluations;
  std::unique_ptr<RunLoader> backend = b.make_loader(run);
  std::thread timer = TimeWindow(evaluations, warmup, b.seconds, stop, speed);
  auto report = RunWorker(o, *backend);
  timer.join();
  if (!report) return util::Prefixed(report.error_value(), "worker: ");
  speed.AddRound(report.value().selfplay_searches,
                 static_cast<uint64_t>(report.value().selfplay_evaluations),
                 report.value().selfplay_games);
  return util::Ok();
}

// Publishes the network and the config as run `run` for the worker.
util::Status PublishRun(const WorkerBench& b, RedisClient& redis, const std::string& run) {
  const RunKeys keys(run);
  if (util::Status s = SetValue(redis, keys.Config(), b.config_text); !s.ok()) return s;
  if (auto p = PublishNetwork(redis, keys, b.network_bytes, 0, true); !p) return p.error_value();
  return util::Ok();
}

}  // namespace

util::Result<IngestFigures> MeasureIngest(const RunSettings& settings,
                                          const RedisOptions& redis_options,
                                          const std::string& work, int games, std::ostream& log) {
  log << "bench cluster: recording " << games << " games of "
      << rules::GameName(settings.rules, settings.size) << "\n";
  const auto recorded = RecordGames(settings, games);
  if (!recorded) return util::Prefixed(recorded.error_value(), "recording games: ");
  const std::string network = util::Sha256Hex("bench-cluster network");
  IngestFigures f;
  auto entries = EncodeEntries(settings, recorded.value(), network, f);
  if (!entries) return entries.error_value();
  auto validated = ValidateRate(settings, entries.value());
  if (!validated) return validated.error_value();
  f.validate_per_second = validated.value();
  if (util::Status s = TimeLearner(settings, redis_options, work, entries.value(), network, f);
      !s.ok()) {
    return s.error_value();
  }
  return f;
}

util::Status MeasureWorker(const WorkerBench& b, SelfplaySpeed& local, SelfplaySpeed& worker,
                           std::ostream& log) {
  const double warmup = std::min(10.0, b.seconds / 4);
  RedisClient redis(b.redis);
  const std::string run = "benchw-" + std::to_string(::getpid());
  const RunKeys keys(run);
  if (auto s = PublishRun(b, redis, run); !s.ok()) {
    return util::Error{"publishing to redis: " + s.error(), util::ErrorKind::kFailure};
  }
  for (int round = 0; round < 2; ++round) {
    util::Status s =
        LocalRound(b, b.work + "/local_" + std::to_string(round), round, warmup, local);
    if (s.ok()) s = WorkerRound(b, run, warmup, worker);
    if (!s.ok()) return s;
    log << "bench cluster: after round " << round + 1 << ": local " << local.Rate()
        << " evaluations/s, worker " << worker.Rate() << " evaluations/s\n";
  }
  for (const std::string& k :
       {keys.WorkerSelfplay("bench"), keys.WorkerArena("bench"), keys.Workers(), keys.Task("bench"),
        keys.Config(), keys.Current(), keys.Models(), keys.Worker("bench")}) {
    DeleteKeys(redis, {k});
  }
  return util::Ok();
}

void PrintIngestFigures(const IngestFigures& f, std::ostream& out) {
  out << fmt::format("entries: {:.0f} bytes each on average\n", f.bytes_per_entry);
  out << fmt::format(
      "learner ingest: {:.0f} entries/s checked, stored (flushed) and acknowledged (checking "
      "alone: {:.0f} entries/s)\n",
      f.entries_per_second, f.validate_per_second);
  out << fmt::format("redis memory: {:.1f} MB per 1,000 queued games\n", f.memory_per_1000 / 1e6);
  if (f.always.first > 0) {
    out << fmt::format(
        "adding games: appendfsync everysec {:.0f} entries/s one by one, {:.0f} in batches of 64; "
        "always {:.0f} one by one ({:.2f}x), {:.0f} in batches ({:.2f}x)\n",
        f.everysec.first, f.everysec.second, f.always.first, f.always.first / f.everysec.first,
        f.always.second, f.always.second / f.everysec.second);
  }
}

void PrintWorkerFigures(const IngestFigures& f, const SelfplaySpeed& local,
                        const SelfplaySpeed& worker, std::ostream& out) {
  out << fmt::format(
      "self-play: this process {:.0f} evaluations/s, one worker through redis {:.0f} "
      "evaluations/s (ratio {:.3f}, overhead {:.1f}%)\n",
      local.Rate(), worker.Rate(), worker.Rate() / local.Rate(),
      100 * (1 - worker.Rate() / local.Rate()));
  const double games = local.games + worker.games;
  const double searches = local.round_searches + worker.round_searches;
  const double per_search = (local.round_evaluations + worker.round_evaluations) / searches;
  const bool from_rounds = games >= 20;
  const double per_game = from_rounds ? searches / games : f.searches_per_game;
  const double worker_games = worker.Rate() / per_search / per_game;
  out << fmt::format(
      "games: {:.0f} evaluations per search, {:.0f} searches per game ({}), one worker {:.3f} "
      "games/s\n",
      per_search, per_game, from_rounds ? "the rounds' games" : "the recorded games", worker_games);
  out << fmt::format(
      "workers one learner can feed: ingest {:.0f} entries/s / {:.3f} games/s per worker = "
      "{:.0f}\n",
      f.entries_per_second, worker_games, f.entries_per_second / worker_games);
}

}  // namespace veletas::cluster
