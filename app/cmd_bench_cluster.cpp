// `veletas bench cluster`: the cluster's figures against a Redis server the user runs
// (docs/CLUSTER.md, cluster/tools/cluster_bench_run.h): the learner's ingest capacity, Redis
// memory per 1,000 queued games, what `appendfsync always` costs against `everysec`, and one
// worker against self-play in this process (goal: under 5% overhead), with the number of
// workers one learner can feed.
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli.h"
#include "app/cluster_setup.h"
#include "app/command.h"
#include "app/pipeline_services.h"
#include "cluster/tools/cluster_bench_run.h"
#include "config/config.h"

namespace veletas::app {
namespace {

struct BenchClusterArgs {
  RedisArgs redis;  // its run is not used: the bench makes its own
  std::string config;
  std::optional<std::string> model, work;
  int games = 1000;
  double seconds = 60;
};

int RunBenchCluster(const BenchClusterArgs& args) {
  auto loaded = config::LoadConfig(args.config);
  if (!loaded) return CommandError("bench cluster", loaded.error_value());
  const config::Config& c = loaded.value();
  auto redis = cluster::MakeRedisOptions(args.redis.url, args.redis.auth_file, "veletas-bench");
  if (!redis) return CommandError("bench cluster", redis.error_value());
  TorchNetworks networks(c);
  const cluster::ClusterBenchRun run{
      .redis = redis.value(),
      .work = args.work,
      .games = args.games,
      .seconds = args.seconds,
      .model = args.model,
      .networks = &networks,
      // The worker loads the network as `veletas worker` does (on the config's device).
      .make_loader = [device = c.model.device](const std::string& name) {
        return std::unique_ptr<cluster::RunLoader>(
            new TorchRunLoader(name, cluster::WorkerOverrides{0, 0, device}));
      }};
  if (util::Status s = cluster::RunClusterBench(c, run, std::cout, std::cerr); !s.ok()) {
    return CommandError("bench cluster", s.error_value());
  }
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

VELETAS_CLI_PART(bench_cluster, "bench", "cluster",
                 "against a Redis you run: learner ingest entries/s, Redis memory per 1,000 "
                 "games, appendfsync costs, one worker vs local self-play",
                 SetupBenchCluster);

}  // namespace veletas::app
