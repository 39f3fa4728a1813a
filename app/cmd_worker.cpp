// `veletas worker`: plays self-play and arena games for a run served through Redis
// (cluster/worker.h, docs/CLUSTER.md).
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <mutex>
#include <string>

#include "app/args.h"
#include "app/cluster_backend.h"
#include "app/command.h"
#include "cluster/keys.h"
#include "cluster/worker.h"

namespace veletas::app {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void OnStop(int) { g_stop = true; }

// $XDG_STATE_HOME/veletas/worker-<run> (~/.local/state when unset), else ./veletas-worker-<run>.
std::string DefaultWorkerDir(const std::string& run) {
  const std::string leaf = "veletas/worker-" + run;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state) {
    return std::string(state) + "/" + leaf;
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home) {
    return std::string(home) + "/.local/state/" + leaf;
  }
  return "veletas-worker-" + run;
}

void LogLine(const std::string& line) {
  static std::mutex mutex;
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::lock_guard<std::mutex> lock(mutex);
  std::cerr << stamp << " " << line << std::endl;
}

int RunWorkerCommand(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"redis", true},
                           {"run", true},
                           {"threads", true},
                           {"games-in-flight", true},
                           {"dir", true},
                           {"id", true},
                           {"redis-auth", true},
                           {"device", true}},
                          argv, 0);
  if (!parsed) return UsageError("worker", parsed.error());
  const ParsedArgs& args = parsed.value();
  const auto url = args.Value("redis");
  const auto run = args.Value("run");
  if (!url || !run) return UsageError("worker", "expected --redis redis://HOST:PORT --run NAME");
  if (util::Status s = cluster::ValidateName("--run", *run); !s.ok()) {
    return UsageError("worker", s.error());
  }
  const auto threads = args.Int("threads", 0, 1, 1024);
  const auto in_flight = args.Int("games-in-flight", 0, 1, 100000);
  for (const auto* r : {&threads, &in_flight}) {
    if (!*r) return UsageError("worker", r->error());
  }
  WorkerOverrides overrides;
  overrides.threads = static_cast<int>(threads.value());
  overrides.games_in_flight = static_cast<int>(in_flight.value());
  overrides.device = args.Value("device").value_or("auto");
  if (overrides.device != "cpu" && overrides.device != "cuda" && overrides.device != "auto") {
    return UsageError("worker", "--device: expected cpu, cuda or auto");
  }
  cluster::WorkerOptions options;
  options.run = *run;
  options.dir = args.Value("dir").value_or(DefaultWorkerDir(*run));
  options.id = args.Value("id").value_or("");
  if (!options.id.empty()) {
    if (util::Status s = cluster::ValidateName("--id", options.id); !s.ok()) {
      return UsageError("worker", s.error());
    }
  }
  auto redis = RedisOptionsFor(*url, args.Value("redis-auth").value_or(""), "");
  if (!redis) {
    std::cerr << "veletas worker: " << redis.error() << "\n";
    return redis.exit_code();
  }
  options.redis = redis.value();
  options.redis.client_name = "veletas-worker";
  options.log = LogLine;
  options.stop = &g_stop;
  TorchWorkerBackend backend(*run, overrides);
  g_stop = false;
  const auto previous_int = std::signal(SIGINT, OnStop);
  const auto previous_term = std::signal(SIGTERM, OnStop);
  LogLine("worker for run " + *run + " at redis " + options.redis.endpoint.ToString() +
          ", directory " + options.dir);
  auto report = cluster::RunWorker(options, backend);
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  if (!report) {
    std::cerr << "veletas worker: " << report.error() << "\n";
    return report.exit_code();
  }
  LogLine("worker " + report.value().id +
          " stopped: " + std::to_string(report.value().selfplay_games) + " self-play games, " +
          std::to_string(report.value().arena_games) + " arena games, " +
          std::to_string(report.value().tasks) + " tasks");
  return 0;
}

}  // namespace

VELETAS_COMMAND(worker, "worker",
                "--redis redis://HOST:PORT --run NAME [--threads N] [--games-in-flight G] "
                "[--dir DIR] [--id ID] [--redis-auth FILE] [--device cpu|cuda|auto]",
                "play self-play and arena games for a run served through Redis until stopped "
                "(docs/CLUSTER.md); credentials from --redis-auth FILE or VELETAS_REDIS_*",
                RunWorkerCommand);

}  // namespace veletas::app
