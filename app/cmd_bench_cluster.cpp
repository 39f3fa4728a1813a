// `veletas bench-cluster`: the cluster's figures against a Redis server the user runs
// (docs/CLUSTER.md): the learner's ingest capacity (entries/s it checks, stores durably and
// acknowledges), Redis memory per 1,000 queued games, what `appendfsync always` costs
// against `everysec` when games are added, and one worker against self-play in this
// process (the overhead of going through Redis; goal under 5%), measured alternately in one
// run. Prints the number of workers one learner can feed.
#include <unistd.h>

#include <fmt/format.h>
#include <atomic>
#include <chrono>
#include <climits>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "app/cli.h"
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
  double searches_per_game = 0;  // of the recorded games
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
    f.searches_per_game += static_cast<double>(g.full_decisions + g.cheap_decisions) /
                           static_cast<double>(recorded.value().size());
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

// Speeds of one side of the worker comparison: network evaluations asked for per second
// over the timed windows (a continuous measure: games, and on big boards even searches,
// finish in waves of games_in_flight, too few in a minute to count), and the totals of the
// whole rounds (for evaluations per search and searches per game).
struct SelfplaySpeed {
  double evaluations = 0, seconds = 0;  // in the timed windows
  double round_evaluations = 0, round_searches = 0, games = 0;
  double Rate() const { return evaluations / seconds; }
  // Adds the totals of a whole round.
  void AddRound(int64_t searches, uint64_t round_evals, int64_t finished) {
    round_searches += static_cast<double>(searches);
    round_evaluations += static_cast<double>(round_evals);
    games += static_cast<double>(finished);
  }
};

// Starts a thread that waits `warmup` seconds, counts `counter` for `seconds` into `speed`,
// then sets `stop`.
std::thread TimeWindow(const std::atomic<int64_t>& counter, double warmup, double seconds,
                       std::atomic<bool>& stop, SelfplaySpeed& speed) {
  return std::thread([&counter, warmup, seconds, &stop, &speed] {
    std::this_thread::sleep_for(std::chrono::duration<double>(warmup));
    const int64_t at_warmup = counter;
    const auto start = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    speed.evaluations += static_cast<double>(counter - at_warmup);
    speed.seconds += util::SecondsSince(start);
    stop = true;
  });
}

// One round of self-play in this process, files written as the pipeline writes them.
util::Status LocalRound(const Config& c, search::Evaluator& evaluator, const std::string& dir,
                        int round, double warmup, double seconds, SelfplaySpeed& speed) {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> evaluations{0};
  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  // Files as a generation of the pipeline writes them; ten generations' worth of games, so
  // that the window ends first (the plan lists every game: no 10^9-game plans).
  job.games = 10 * c.pipeline.games_per_generation;
  job.out_dir = dir;
  job.generation = static_cast<uint64_t>(round);
  selfplay::SelfplayHooks hooks;
  hooks.stop = &stop;
  hooks.progress_seconds = 0.25;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    evaluations = static_cast<int64_t>(s.evaluations);
  };
  std::thread timer = TimeWindow(evaluations, warmup, seconds, stop, speed);
  auto local = selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, evaluator, job, hooks);
  timer.join();
  if (!local) return util::Prefixed(local.error_value(), "local self-play: ");
  speed.AddRound(local.value().searches, local.value().evaluations, local.value().games_finished);
  return util::Ok();
}

// One round of one worker of run `run` (through its spool and Redis).
util::Status WorkerRound(const Config& c, const cluster::RedisOptions& redis_options,
                         const std::string& run, const std::string& dir, double warmup,
                         double seconds, SelfplaySpeed& speed) {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> evaluations{0};
  cluster::WorkerOptions o;
  o.redis = redis_options;
  o.run = run;
  o.dir = dir;
  o.id = "bench";
  o.stop = &stop;
  o.evaluations = &evaluations;
  WorkerOverrides overrides;
  overrides.device = c.model.device;
  TorchWorkerBackend backend(run, overrides);
  std::thread timer = TimeWindow(evaluations, warmup, seconds, stop, speed);
  auto report = cluster::RunWorker(o, backend);
  timer.join();
  if (!report) return util::Prefixed(report.error_value(), "worker: ");
  speed.AddRound(report.value().selfplay_searches,
                 static_cast<uint64_t>(report.value().selfplay_evaluations),
                 report.value().selfplay_games);
  return util::Ok();
}

// Publishes `checkpoint` and the config as run `run` for the worker, with a queue nobody
// empties that must not fill up.
util::Status PublishRun(const Config& c, cluster::RedisClient& redis,
                        const cluster::RedisOptions& redis_options, const std::string& run,
                        const std::string& checkpoint) {
  const cluster::RunKeys keys(run);
  auto bytes = PublishedCheckpoint(checkpoint);
  if (!bytes) return bytes.error_value();
  std::string config_text = c.resolved_yaml;
  if (c.cluster.redis.empty()) {
    config_text += "cluster:\n  redis: redis://" + redis_options.endpoint.ToString() +
                   "\n  max_queued_games: 100000000\n";
  }
  if (auto s = redis.Call({"SET", keys.Config(), config_text}); !s) return s.error_value();
  if (auto p = cluster::PublishNetwork(redis, keys, bytes.value(), 0, true); !p) {
    return p.error_value();
  }
  return cluster::EnsureGroup(redis, keys.Tasks(), cluster::kWorkerGroup);
}

// Self-play in this process against one worker, alternately, twice each: evaluations/s over
// `seconds` after a warm-up.
int MeasureWorker(const Config& c, const cluster::RedisOptions& redis_options,
                  const std::string& work, const std::string& checkpoint, double seconds,
                  SelfplaySpeed& local, SelfplaySpeed& worker) {
  const double warmup = std::min(10.0, seconds / 4);
  auto loaded = LoadConfigNetwork(checkpoint, c);
  if (!loaded) {
    std::cerr << "veletas bench-cluster: " << loaded.error() << "\n";
    return loaded.exit_code();
  }
  cluster::RedisClient redis(redis_options);
  const std::string run = "benchw-" + std::to_string(::getpid());
  const cluster::RunKeys keys(run);
  if (auto s = PublishRun(c, redis, redis_options, run, checkpoint); !s.ok()) {
    std::cerr << "veletas bench-cluster: publishing to redis: " << s.error() << "\n";
    return 1;
  }
  for (int round = 0; round < 2; ++round) {
    util::Status s =
        LocalRound(c, *loaded.value().evaluator, work + "/local_" + std::to_string(round), round,
                   warmup, seconds, local);
    if (s.ok()) s = WorkerRound(c, redis_options, run, work + "/worker", warmup, seconds, worker);
    if (!s.ok()) {
      std::cerr << "veletas bench-cluster: " << s.error() << "\n";
      return s.exit_code();
    }
    std::cerr << "bench-cluster: after round " << round + 1 << ": local " << local.Rate()
              << " evaluations/s, worker " << worker.Rate() << " evaluations/s\n";
  }
  for (const std::string& k :
       {keys.SelfplayResults(), keys.ArenaResults(), keys.Tasks(), keys.Config(), keys.Current(),
        keys.Models(), keys.Worker("bench")}) {
    redis.Call({"DEL", k});
  }
  return 0;
}

// The worker comparison and the number of workers one learner can feed. Searches per game
// come from the rounds' finished games, or from the recorded games where fewer than 20
// finished (big boards: a game outlasts a round).
void PrintWorkerFigures(const IngestFigures& f, const SelfplaySpeed& local,
                        const SelfplaySpeed& worker) {
  fmt::print(
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
  fmt::print(
      "games: {:.0f} evaluations per search, {:.0f} searches per game ({}), one worker {:.3f} "
      "games/s\n",
      per_search, per_game, from_rounds ? "the rounds' games" : "the recorded games", worker_games);
  fmt::print(
      "workers one learner can feed: ingest {:.0f} entries/s / {:.3f} games/s per worker = "
      "{:.0f}\n",
      f.entries_per_second, worker_games, f.entries_per_second / worker_games);
}

void PrintIngestFigures(const Config& c, const IngestFigures& f) {
  fmt::print("{}, {}\n", rules::GameName(c.game.rules, c.game.size), c.source);
  fmt::print("entries: {:.0f} bytes each on average\n", f.bytes_per_entry);
  fmt::print(
      "learner ingest: {:.0f} entries/s checked, stored (flushed) and acknowledged (checking "
      "alone: {:.0f} entries/s)\n",
      f.entries_per_second, f.validate_per_second);
  fmt::print("redis memory: {:.1f} MB per 1,000 queued games\n", f.memory_per_1000 / 1e6);
  if (f.always.first > 0) {
    fmt::print(
        "adding games: appendfsync everysec {:.0f} entries/s one by one, {:.0f} in batches of 64; "
        "always {:.0f} one by one ({:.2f}x), {:.0f} in batches ({:.2f}x)\n",
        f.everysec.first, f.everysec.second, f.always.first, f.always.first / f.everysec.first,
        f.always.second, f.always.second / f.everysec.second);
  }
}

struct BenchClusterArgs {
  RedisArgs redis;  // its run is not used: the bench makes its own
  std::string config;
  std::optional<std::string> model, work;
  int games = 1000;
  double seconds = 60;
};

// The network the worker comparison plays: --model, else a fresh one written into `work`.
util::Result<std::string> BenchCheckpoint(const BenchClusterArgs& args, const Config& c,
                                          const std::string& work) {
  if (args.model) return *args.model;
  const std::string checkpoint = work + "/fresh.ckpt";
  const model::ModelSpec spec{c.game.rules, c.game.size, c.model};
  if (auto s = model::CreateInitialCheckpoint(checkpoint, spec, 1); !s) {
    return util::Error{s.error(), util::ErrorKind::kFailure};
  }
  return checkpoint;
}

int RunBenchCluster(const BenchClusterArgs& args) {
  auto loaded = LoadConfig(args.config);
  if (!loaded) return CommandError("bench-cluster", loaded.error_value());
  const Config& c = loaded.value();
  auto redis = RedisOptionsFor(args.redis, "veletas-bench");
  if (!redis) return CommandError("bench-cluster", redis.error_value());
  const std::string work = args.work.value_or(
      (fs::temp_directory_path() / ("veletas_bench_cluster_" + std::to_string(::getpid())))
          .string());
  fs::remove_all(work);
  fs::create_directories(work);
  IngestFigures f;
  if (int code = MeasureIngest(c, redis.value(), work + "/ingest", args.games, f); code != 0) {
    return code;
  }
  PrintIngestFigures(c, f);
  if (args.seconds > 0) {
    auto checkpoint = BenchCheckpoint(args, c, work);
    if (!checkpoint) return CommandError("bench-cluster", checkpoint.error_value());
    SelfplaySpeed local, worker;
    if (int code =
            MeasureWorker(c, redis.value(), work, checkpoint.value(), args.seconds, local, worker);
        code != 0) {
      return code;
    }
    PrintWorkerFigures(f, local, worker);
  }
  fs::remove_all(work);
  return 0;
}

CommandRun SetupBenchCluster(CLI::App& cmd) {
  auto o = std::make_shared<BenchClusterArgs>();
  AddRedisServerOptions(cmd, o->redis);
  AddRequiredConfig(cmd, o->config, "config whose game, model, self-play and cluster apply");
  cmd.add_option("--model", o->model,
                 "network of the worker comparison (default: fresh weights, same speed)")
      ->type_name("CKPT");
  cmd.add_option("--games", o->games, "games recorded for the ingest measurement")
      ->check(CLI::Range(10, 1'000'000));
  cmd.add_option("--seconds", o->seconds,
                 "seconds of each self-play measurement, twice per side (0 skips the worker "
                 "comparison)")
      ->check(CLI::Range(0.0, 36000.0));
  cmd.add_option("--work", o->work, "scratch directory (default: a temporary one, removed)")
      ->type_name("DIR");
  return [o] { return RunBenchCluster(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench_cluster, "bench-cluster",
                    "the cluster's figures against a Redis you run: learner ingest entries/s, "
                    "Redis memory per 1,000 queued games, appendfsync always vs everysec, one "
                    "worker vs self-play in this process",
                    SetupBenchCluster);

}  // namespace veletas::app
