// `veletas cluster status` and `veletas cluster audit`: looking at a run served through Redis
// (docs/CLUSTER.md).
#include <iostream>
#include <string>
#include <vector>

#include "app/args.h"
#include "app/cluster_backend.h"
#include "app/command.h"
#include "cluster/audit.h"
#include "cluster/keys.h"
#include "cluster/status.h"

namespace veletas::app {
namespace {

int Status(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"redis", true}, {"run", true}, {"redis-auth", true}}, argv, 0);
  if (!parsed) return UsageError("cluster status", parsed.error());
  const auto url = parsed.value().Value("redis");
  const auto run = parsed.value().Value("run");
  if (!url || !run) {
    return UsageError("cluster status", "expected --redis redis://HOST:PORT --run NAME");
  }
  if (util::Status s = cluster::ValidateName("--run", *run); !s.ok()) {
    return UsageError("cluster status", s.error());
  }
  auto options =
      RedisOptionsFor(*url, parsed.value().Value("redis-auth").value_or(""), "veletas-status");
  if (!options) {
    std::cerr << "veletas cluster status: " << options.error() << "\n";
    return options.exit_code();
  }
  options.value().connect_timeout_seconds = 3;
  options.value().command_timeout_seconds = 10;
  cluster::RedisClient redis(options.value());
  auto report = cluster::ClusterStatus(redis, cluster::RunKeys(*run));
  if (!report) {
    std::cerr << "veletas cluster status: " << report.error() << "\n";
    return report.exit_code();
  }
  std::cout << "run " << *run << "\n" << report.value();
  return 0;
}

int Audit(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({}, argv, 1);
  if (!parsed || parsed.value().Positional().size() != 1) {
    return UsageError("cluster audit", parsed ? "expected RUN_DIR" : parsed.error());
  }
  const std::string dir = parsed.value().Positional().front();
  auto audit = cluster::AuditRun(dir);
  if (!audit) {
    std::cerr << "veletas cluster audit: " << audit.error() << "\n";
    return audit.exit_code();
  }
  const cluster::RunAudit& a = audit.value();
  std::cout << dir << ": " << a.selfplay_games << " self-play games in " << a.sample_files
            << " sample files (" << a.games_with_id << " with a game id, " << a.duplicates.size()
            << " stored twice), " << a.match_games << " arena games in " << a.matches
            << " matches\n";
  for (const std::string& d : a.duplicates) std::cout << "  stored twice: " << d << "\n";
  for (const std::string& u : a.unreadable) std::cout << "  unreadable: " << u << "\n";
  return a.duplicates.empty() && a.unreadable.empty() ? 0 : 1;
}

int RunClusterCommand(const std::vector<std::string>& argv) {
  const std::string sub = argv.empty() ? "" : argv.front();
  const std::vector<std::string> rest(argv.begin() + (argv.empty() ? 0 : 1), argv.end());
  if (sub == "status") return Status(rest);
  if (sub == "audit") return Audit(rest);
  return UsageError("cluster",
                    "expected a subcommand: status --redis URL --run NAME, or audit RUN_DIR");
}

}  // namespace

VELETAS_COMMAND(cluster, "cluster",
                "status --redis redis://HOST:PORT --run NAME [--redis-auth FILE] | audit RUN_DIR",
                "status: the learner, workers alive with their games/s, queues, pending tasks and "
                "rejected entries of a run served through Redis; audit: check that every "
                "self-play game of a run directory is stored once",
                RunClusterCommand);

}  // namespace veletas::app
