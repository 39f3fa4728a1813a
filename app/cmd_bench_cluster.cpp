// `veletas bench-cluster`: the cluster's figures against a Redis server the user runs
// (docs/CLUSTER.md): the learner's ingest capacity (entries/s it checks, stores durably and
// acknowledges), Redis memory per 1,000 queued games, what `appendfsync always` costs
// against `everysec` when games are added, and one worker against self-play in this
// process (the overhead of going through Redis; goal under 5%), measured alternately in one
// run. Prints the number of workers one learner can feed.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/args.h"
#include "app/cluster_backend.h"
#include "app/command.h"
#include "app/config.h"
#include "app/load_evaluator.h"
#include "cluster/entry.h"
#include "cluster/learner.h"
#include "cluster/networks.h"
#include "cluster/streams.h"
#include "cluster/validate.h"
#include "cluster/worker.h"
#include "data/sample_file.h"
#include "model/model_files.h"
#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "util/clock.h"
#include "util/sha256.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// `n` games with the config's self-play settings and a hash evaluator (8 simulations: the
// entries have the samples, policies and records of real games of this board; only their
// play is weak).
util::Result<std::vector<selfplay::FinishedGame>> RecordGames(const Config& c, int n) {
  selfplay::SelfplayConfig sp = c.selfplay;
  sp.full_simulations = std::min(sp.full_simulations, 8);
  sp.cheap_simulations = std::min(sp.cheap_simulations, 4);
  sp.threads = 2;
  search::HashEvaluator evaluator(7);
  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = n;
  return selfplay::PlayGamesInMemory(sp, c.search, c.evaluator, evaluator, job);
}

long long UsedMemory(cluster::RedisClient& redis) {
  auto info = redis.Call({"INFO", "memory"});
  if (!info) return -1;
  const std::string& s = info.value().str;
  const size_t at = s.find("used_memory:");
  return at == std::string::npos ? -1 : std::atoll(s.c_str() + at + 12);
}

// Entries/s of XADDs of `entries`: one at a time (a round trip each) and in batches of 64.
std::pair<double, double> AddRates(cluster::RedisClient& redis, const std::string& key,
                                   const std::vector<std::string>& entries) {
  auto start = Clock::now();
  for (const std::string& e : entries) cluster::AddEntry(redis, key, {{"w", "bench"}, {"e", e}});
  const double single = static_cast<double>(entries.size()) / util::SecondsSince(start);
  start = Clock::now();
  for (size_t at = 0; at < entries.size(); at += 64) {
    std::vector<std::vector<std::string>> batch;
    for (size_t i = at; i < std::min(entries.size(), at + 64); ++i) {
      batch.push_back({"XADD", key, "*", "w", "bench", "e", entries[i]});
    }
    redis.Pipeline(batch);
  }
  const double piped = static_cast<double>(entries.size()) / util::SecondsSince(start);
  redis.Call({"DEL", key});
  return {single, piped};
}

struct IngestFigures {
  double entries_per_second = 0;
  double validate_per_second = 0;
  double bytes_per_entry = 0;
  double memory_per_1000 = 0;
  std::pair<double, double> everysec{}, always{};
};

int MeasureIngest(const Config& c, const cluster::RedisOptions& redis_options,
                  const std::string& work, int games, IngestFigures& f) {
  std::cerr << "bench-cluster: recording " << games << " games of "
            << rules::GameName(c.game.rules, c.game.size) << "\n";
  const auto recorded = RecordGames(c, games);
  if (!recorded) {
    std::cerr << "bench-cluster: recording games: " << recorded.error() << "\n";
    return recorded.exit_code();
  }
  const std::string network = util::Sha256Hex("bench-cluster network");
  std::vector<std::string> entries;
  double bytes = 0;
  for (const auto& g : recorded.value()) {
    cluster::Entry e;
    e.game_id = cluster::RandomGameId();
    e.worker = "bench";
    e.network = network;
    e.game.rules = c.game.rules;
    e.game.size = c.game.size;
    e.game.samples = g.samples;
    data::GameRecord r = g.record;
    r.id = e.game_id;
    e.game.games.push_back(r);
    auto b = cluster::EncodeEntry(e);
    if (!b) return 1;
    bytes += static_cast<double>(b.value().size());
    entries.push_back(std::move(b.value()));
  }
  f.bytes_per_entry = bytes / static_cast<double>(entries.size());
  // Checking alone (decode + validate), for the breakdown.
  auto start = Clock::now();
  for (const std::string& e : entries) {
    auto d = cluster::DecodeEntry(e, c.cluster.max_entry_bytes);
    if (!d || !cluster::ValidateSelfplayGame(d.value().game, c.game.rules, c.game.size).ok()) {
      std::cerr << "bench-cluster: a recorded game does not validate\n";
      return 1;
    }
  }
  f.validate_per_second = static_cast<double>(entries.size()) / util::SecondsSince(start);

  cluster::RedisClient redis(redis_options);
  cluster::LearnerOptions o;
  o.redis = redis_options;
  o.run = "bench-" + std::to_string(::getpid());
  o.cluster = c.cluster;
  o.config_text = "bench";
  o.run_dir = work;
  o.network_bytes = [](const std::string&) { return util::Result<std::string>(""); };
  auto learner = cluster::Learner::Start(o);
  if (!learner) {
    std::cerr << "bench-cluster: " << learner.error() << "\n";
    return learner.exit_code();
  }
  const cluster::RunKeys keys(o.run);
  const long long before = UsedMemory(redis);
  for (size_t at = 0; at < entries.size(); at += 64) {
    std::vector<std::vector<std::string>> batch;
    for (size_t i = at; i < std::min(entries.size(), at + 64); ++i) {
      batch.push_back({"XADD", keys.SelfplayResults(), "*", "w", "bench", "e", entries[i]});
    }
    if (auto r = redis.Pipeline(batch); !r) {
      std::cerr << "bench-cluster: " << r.error() << "\n";
      return 1;
    }
  }
  f.memory_per_1000 =
      static_cast<double>(UsedMemory(redis) - before) * 1000.0 / static_cast<double>(games);
  cluster::CollectRequest req;
  req.dir.dir = work + "/samples";
  req.dir.games = games;
  req.dir.games_per_file = c.selfplay.games_per_file;
  req.dir.rules = c.game.rules;
  req.dir.size = c.game.size;
  req.accepted = req.known = {network};
  start = Clock::now();
  auto report = learner.value()->CollectSelfplay(req);
  if (!report) {
    std::cerr << "bench-cluster: " << report.error() << "\n";
    return 1;
  }
  f.entries_per_second = static_cast<double>(games) / util::SecondsSince(start);
  // appendfsync: the same entries added with each setting.
  auto fsync = redis.Call({"CONFIG", "GET", "appendfsync"});
  if (fsync && fsync.value().elements.size() == 2) {
    const std::string was = fsync.value().elements[1].str;
    const std::string key = keys.prefix + "fsync-bench";
    redis.Call({"CONFIG", "SET", "appendfsync", "everysec"});
    f.everysec = AddRates(redis, key, entries);
    redis.Call({"CONFIG", "SET", "appendfsync", "always"});
    f.always = AddRates(redis, key, entries);
    redis.Call({"CONFIG", "SET", "appendfsync", was});
  }
  for (const std::string& k : {keys.SelfplayResults(), keys.ArenaResults(), keys.Tasks(),
                               keys.Stats(), keys.Rejections(), keys.Config()}) {
    redis.Call({"DEL", k});
  }
  return 0;
}

// Games finished per second over `seconds` (after `warmup`), by self-play in this process
// (files written as `veletas selfplay` does) and by one worker (through its spool and Redis),
// alternately, twice each.
int MeasureWorker(const Config& c, const cluster::RedisOptions& redis_options,
                  const std::string& work, const std::string& checkpoint, double seconds,
                  double& local_rate, double& worker_rate) {
  const double warmup = std::min(10.0, seconds / 4);
  auto loaded = LoadConfigNetwork(checkpoint, c);
  if (!loaded) {
    std::cerr << "veletas bench-cluster: " << loaded.error() << "\n";
    return loaded.exit_code();
  }
  search::Evaluator& evaluator = *loaded.value().evaluator;
  cluster::RedisClient redis(redis_options);
  const std::string run = "benchw-" + std::to_string(::getpid());
  const cluster::RunKeys keys(run);
  auto bytes = PublishedCheckpoint(checkpoint);
  if (!bytes) return bytes.exit_code();
  // Nobody takes the worker's games here: the queue must not fill up.
  std::string config_text = c.resolved_yaml;
  if (c.cluster.redis.empty()) {
    config_text += "cluster:\n  redis: redis://" + redis_options.endpoint.ToString() +
                   "\n  max_queued_games: 100000000\n";
  }
  if (!redis.Call({"SET", keys.Config(), config_text}).ok() ||
      !cluster::PublishNetwork(redis, keys, bytes.value(), 0, true).ok() ||
      !cluster::EnsureGroup(redis, keys.Tasks(), cluster::kWorkerGroup).ok()) {
    std::cerr << "bench-cluster: cannot publish to redis\n";
    return 1;
  }
  double local_games = 0, local_time = 0, worker_games = 0, worker_time = 0;
  for (int round = 0; round < 2; ++round) {
    {  // this process
      std::atomic<bool> stop{false};
      std::atomic<int64_t> finished{0};
      selfplay::SelfplayJob job;
      job.rules = c.game.rules;
      job.size = c.game.size;
      job.games = 1'000'000'000;  // until stopped; one planned file (games_per_file below)
      job.out_dir = work + "/local_" + std::to_string(round);
      job.generation = static_cast<uint64_t>(round);
      selfplay::SelfplayConfig sp = c.selfplay;
      sp.games_per_file = 1'000'000'000;  // journals only, as a long run writes
      selfplay::SelfplayHooks hooks;
      hooks.stop = &stop;
      hooks.progress_seconds = 0.25;
      hooks.progress = [&](const selfplay::SelfplayStats& s) { finished = s.games_finished; };
      std::thread timer([&] {
        std::this_thread::sleep_for(std::chrono::duration<double>(warmup));
        const int64_t at_warmup = finished;
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        local_games += static_cast<double>(finished - at_warmup);
        local_time += seconds;
        stop = true;
      });
      auto local = selfplay::RunSelfplay(sp, c.search, c.evaluator, evaluator, job, hooks);
      timer.join();
      if (!local) {
        std::cerr << "bench-cluster: local self-play: " << local.error() << "\n";
        return local.exit_code();
      }
    }
    {  // one worker
      std::atomic<bool> stop{false};
      cluster::WorkerOptions o;
      o.redis = redis_options;
      o.run = run;
      o.dir = work + "/worker";
      o.id = "bench";
      o.stop = &stop;
      WorkerOverrides overrides;
      overrides.device = c.model.device;
      TorchWorkerBackend backend(run, overrides);
      std::thread timer([&] {
        std::this_thread::sleep_for(std::chrono::duration<double>(warmup));
        const long long at_warmup = redis.Call({"XLEN", keys.SelfplayResults()}).value().integer;
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        worker_games += static_cast<double>(
            redis.Call({"XLEN", keys.SelfplayResults()}).value().integer - at_warmup);
        worker_time += seconds;
        stop = true;
      });
      auto report = cluster::RunWorker(o, backend);
      timer.join();
      if (!report) {
        std::cerr << "bench-cluster: worker: " << report.error() << "\n";
        return 1;
      }
    }
    std::cerr << "bench-cluster: round " << round + 1 << ": local " << local_games / local_time
              << " games/s, worker " << worker_games / worker_time << " games/s\n";
  }
  for (const std::string& k :
       {keys.SelfplayResults(), keys.ArenaResults(), keys.Tasks(), keys.Config(), keys.Current(),
        keys.Models(), keys.Worker("bench")}) {
    redis.Call({"DEL", k});
  }
  local_rate = local_games / local_time;
  worker_rate = worker_games / worker_time;
  return 0;
}

int RunBenchCluster(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"redis", true},
                           {"config", true},
                           {"model", true},
                           {"games", true},
                           {"seconds", true},
                           {"redis-auth", true},
                           {"work", true}},
                          argv, 0);
  if (!parsed) return UsageError("bench-cluster", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto url = args.Value("redis");
  const auto config_path = args.Value("config");
  if (!url || !config_path) {
    return UsageError("bench-cluster", "expected --redis redis://HOST:PORT --config FILE");
  }
  auto loaded = LoadConfig(*config_path);
  if (!loaded) {
    std::cerr << loaded.error() << "\n";
    return 2;
  }
  const Config& c = loaded.value();
  const auto games = args.Int("games", 1000, 10, 1'000'000);
  const auto seconds = args.Real("seconds", 60, 0, 36000);
  for (const auto* r : {&games}) {
    if (!*r) return UsageError("bench-cluster", r->error());
  }
  if (!seconds) return UsageError("bench-cluster", seconds.error());
  auto redis = RedisOptionsFor(*url, args.Value("redis-auth").value_or(""), "veletas-bench");
  if (!redis) {
    std::cerr << "veletas bench-cluster: " << redis.error() << "\n";
    return redis.exit_code();
  }
  const std::string work = args.Value("work").value_or(
      (fs::temp_directory_path() / ("veletas_bench_cluster_" + std::to_string(::getpid())))
          .string());
  fs::remove_all(work);
  fs::create_directories(work);
  IngestFigures f;
  if (int code =
          MeasureIngest(c, redis.value(), work + "/ingest", static_cast<int>(games.value()), f);
      code != 0) {
    return code;
  }
  std::printf("%s, %s\n", rules::GameName(c.game.rules, c.game.size).c_str(), c.source.c_str());
  std::printf("entries: %.0f bytes each on average\n", f.bytes_per_entry);
  std::printf(
      "learner ingest: %.0f entries/s checked, stored (flushed) and acknowledged "
      "(checking alone: %.0f entries/s)\n",
      f.entries_per_second, f.validate_per_second);
  std::printf("redis memory: %.1f MB per 1,000 queued games\n", f.memory_per_1000 / 1e6);
  if (f.always.first > 0) {
    std::printf(
        "adding games: appendfsync everysec %.0f entries/s one by one, %.0f in batches of "
        "64; always %.0f one by one (%.2fx), %.0f in batches (%.2fx)\n",
        f.everysec.first, f.everysec.second, f.always.first, f.always.first / f.everysec.first,
        f.always.second, f.always.second / f.everysec.second);
  }
  double local = 0, worker = 0;
  if (seconds.value() > 0) {
    std::string checkpoint = args.Value("model").value_or("");
    if (checkpoint.empty()) {
      checkpoint = work + "/fresh.ckpt";
      model::ModelSpec spec{c.game.rules, c.game.size, c.model};
      if (auto s = model::CreateInitialCheckpoint(checkpoint, spec, 1); !s) {
        std::cerr << "veletas bench-cluster: " << s.error() << "\n";
        return 1;
      }
    }
    if (int code =
            MeasureWorker(c, redis.value(), work, checkpoint, seconds.value(), local, worker);
        code != 0) {
      return code;
    }
    std::printf(
        "self-play: this process %.3f games/s, one worker through redis %.3f games/s "
        "(ratio %.3f, overhead %.1f%%)\n",
        local, worker, worker / local, 100 * (1 - worker / local));
    std::printf(
        "workers one learner can feed: ingest %.0f entries/s / %.3f games/s per worker "
        "= %.0f\n",
        f.entries_per_second, worker, f.entries_per_second / worker);
  }
  fs::remove_all(work);
  return 0;
}

}  // namespace

VELETAS_COMMAND(bench_cluster, "bench-cluster",
                "--redis redis://HOST:PORT --config FILE [--model CKPT] [--games N] "
                "[--seconds S] [--redis-auth FILE] [--work DIR]",
                "the cluster's figures against a Redis you run: learner ingest entries/s, Redis "
                "memory per 1,000 queued games, appendfsync always vs everysec, one worker vs "
                "self-play in this process (S seconds each, twice; 0 skips it)",
                RunBenchCluster);

}  // namespace veletas::app
