// `veletas bench-cluster`: the cluster's figures against a Redis server the user runs
// (docs/CLUSTER.md): the learner's ingest capacity (entries/s it checks, stores durably and
// acknowledges), Redis memory per 1,000 queued games, what `appendfsync always` costs
// against `everysec` when games are added, and one worker against self-play in this
// process (the overhead of going through Redis; goal under 5%), measured alternately in one
// run. Prints the number of workers one learner can feed.
#include <unistd.h>

#include <fmt/format.h>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli.h"
#include "app/cluster_setup.h"
#include "app/command.h"
#include "app/config_network.h"
#include "cluster/tools/cluster_bench.h"
#include "config/config.h"
#include "model/base/checkpoint_file.h"
#include "model/torch/model_files.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;

// Self-play in this process against one worker: the figures, or the exit code of an error.
int BenchWorker(const config::Config& c, const cluster::RedisOptions& redis,
                const std::string& work, const std::string& checkpoint, double seconds,
                const cluster::IngestFigures& f) {
  auto network = LoadConfigNetwork(checkpoint, c);
  if (!network) return CommandError("bench-cluster", network.error_value());
  cluster::WorkerBench bench = cluster::WorkerBenchOf(c, redis, work, seconds);
  // The worker loads the network as `veletas worker` does (on the config's device).
  bench.make_loader = [device = c.model.device](const std::string& run) {
    return std::unique_ptr<cluster::RunLoader>(
        new TorchRunLoader(run, cluster::WorkerOverrides{0, 0, device}));
  };
  bench.evaluator = network.value().evaluator.get();
  auto bytes = model::ReadCheckpointWithoutOptimizer(checkpoint);
  if (!bytes) {
    return CommandError("bench-cluster",
                        {"publishing to redis: " + bytes.error(), util::ErrorKind::kFailure});
  }
  bench.network_bytes = std::move(bytes.value());
  cluster::SelfplaySpeed local, worker;
  if (util::Status s = cluster::MeasureWorker(bench, local, worker, std::cerr); !s.ok()) {
    return CommandError("bench-cluster", s.error_value());
  }
  cluster::PrintWorkerFigures(f, local, worker, std::cout);
  return 0;
}

struct BenchClusterArgs {
  RedisArgs redis;  // its run is not used: the bench makes its own
  std::string config;
  std::optional<std::string> model, work;
  int games = 1000;
  double seconds = 60;
};

// The network the worker comparison plays: --model, else a fresh one written into `work`.
util::Result<std::string> BenchCheckpoint(const BenchClusterArgs& args, const config::Config& c,
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
  auto loaded = config::LoadConfig(args.config);
  if (!loaded) return CommandError("bench-cluster", loaded.error_value());
  const config::Config& c = loaded.value();
  auto redis = cluster::MakeRedisOptions(args.redis.url, args.redis.auth_file, "veletas-bench");
  if (!redis) return CommandError("bench-cluster", redis.error_value());
  const std::string work = args.work.value_or(
      (fs::temp_directory_path() / ("veletas_bench_cluster_" + std::to_string(::getpid())))
          .string());
  fs::remove_all(work);
  fs::create_directories(work);
  auto f = cluster::MeasureIngest(cluster::RunSettingsOf(c), redis.value(), work + "/ingest",
                                  args.games, std::cerr);
  if (!f) {
    std::cerr << "bench-cluster: " << f.error() << "\n";
    return f.exit_code();
  }
  std::cout << fmt::format("{}, {}\n", rules::GameName(c.game.rules, c.game.size), c.source);
  cluster::PrintIngestFigures(f.value(), std::cout);
  if (args.seconds > 0) {
    auto checkpoint = BenchCheckpoint(args, c, work);
    if (!checkpoint) return CommandError("bench-cluster", checkpoint.error_value());
    if (int code = BenchWorker(c, redis.value(), work, checkpoint.value(), args.seconds, f.value());
        code != 0) {
      return code;
    }
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
