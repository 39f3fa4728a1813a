// `veletas worker`: plays self-play and arena games for a run served through Redis
// (cluster/worker/worker.h, docs/CLUSTER.md).
#include <ctime>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "app/cli.h"
#include "app/cluster_setup.h"
#include "app/command.h"
#include "cluster/worker/worker.h"
#include "model/base/net_config.h"
#include "util/stop_signals.h"

namespace veletas::app {
namespace {

// Writes `line` to stderr after the local date and time, one line at a time.
void LogLine(const std::string& line) {
  static std::mutex mutex;
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::lock_guard<std::mutex> lock(mutex);
  std::cerr << stamp << " " << line << std::endl;
}

struct WorkerArgs {
  RedisArgs redis;
  std::optional<int> threads, in_flight;
  std::string device = "auto";
  std::optional<std::string> dir;
  std::string id;
};

int RunWorkerCommand(const WorkerArgs& args) {
  const std::string& run = args.redis.run;
  // No connection name: a worker's user may not set one (cluster::WorkerAclLine).
  auto redis = cluster::MakeRedisOptions(args.redis.url, args.redis.auth_file, "");
  if (!redis) return CommandError("worker", redis.error_value());
  cluster::WorkerOptions options;
  options.run = run;
  options.dir = args.dir.value_or(cluster::DefaultWorkerDir(run));
  options.id = args.id;
  options.redis = redis.value();
  options.log = LogLine;
  TorchRunLoader loader(
      run, cluster::WorkerOverrides{args.threads.value_or(0), args.in_flight.value_or(0),
                                    *model::ParseDevice(args.device)});
  LogLine("worker for run " + run + " at redis " + options.redis.endpoint.ToString() +
          ", directory " + options.dir);
  util::Result<cluster::WorkerReport> report = [&] {
    const util::StopSignals stop;  // SIGINT or SIGTERM: the worker stops cleanly
    options.stop = stop.Flag();
    return cluster::RunWorker(options, loader);
  }();
  if (!report) return CommandError("worker", report.error_value());
  const cluster::WorkerReport& r = report.value();
  LogLine("worker " + r.id + " stopped: " + std::to_string(r.selfplay_games) +
          " self-play games, " + std::to_string(r.arena_games) + " arena games, " +
          std::to_string(r.tasks) + " tasks");
  return 0;
}

CommandRun SetupWorker(CLI::App& cmd) {
  auto o = std::make_shared<WorkerArgs>();
  AddRedisOptions(cmd, o->redis);
  cmd.add_option("--threads", o->threads, "self-play threads (default: the run's config)")
      ->check(CLI::Range(1, 1024));
  cmd.add_option("--games-in-flight", o->in_flight,
                 "games in flight per thread (default: the run's config)")
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--device", o->device, "where the networks run")
      ->check(CLI::IsMember(model::kDevices));
  cmd.add_option("--dir", o->dir,
                 "the worker's directory: networks and games not yet sent (default: "
                 "$XDG_STATE_HOME/veletas/worker-RUN, else ~/.local/state/veletas/worker-RUN)")
      ->type_name("DIR");
  cmd.add_option("--id", o->id,
                 "the worker's id (default: the name of its Redis user vz:RUN:NAME from `cluster "
                 "add-worker`; without one, the id kept in DIR/worker_id, else the host name and a "
                 "random suffix)")
      ->check(ClusterName());
  return [o] { return RunWorkerCommand(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(worker, "worker",
                    "play self-play and arena games for a run served through Redis until stopped "
                    "(docs/CLUSTER.md)",
                    SetupWorker);

}  // namespace veletas::app
