// `veletas cluster status` and `veletas cluster audit`: looking at a run served through Redis
// (docs/CLUSTER.md).
#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/cluster_setup.h"
#include "app/command.h"
#include "cluster/tools/audit.h"
#include "cluster/tools/status.h"
#include "cluster/transport/keys.h"

namespace veletas::app {

namespace {

int Status(const RedisArgs& args, const std::string& redis_log) {
  auto options = cluster::MakeRedisOptions(args.url, args.auth_file, "veletas-status");
  if (!options) return CommandError("cluster status", options.error_value());
  options.value().connect_timeout_seconds = 3;
  options.value().command_timeout_seconds = 10;
  cluster::RedisClient redis(options.value());
  auto report = cluster::ClusterStatus(redis, cluster::RunKeys(args.run), redis_log);
  if (!report) return CommandError("cluster status", report.error_value());
  std::cout << "run " << args.run << "\n" << report.value();
  return 0;
}

int Audit(const std::string& dir) {
  auto audit = cluster::AuditRun(dir);
  if (!audit) return CommandError("cluster audit", audit.error_value());
  const cluster::RunAudit& a = audit.value();
  std::cout << cluster::AuditText(dir, a);
  return a.duplicates.empty() && a.unreadable.empty() ? 0 : 1;
}

CommandRun SetupCluster(CLI::App& cmd) {
  cmd.require_subcommand(1);
  auto redis = std::make_shared<RedisArgs>();
  CLI::App* status = cmd.add_subcommand(
      "status",
      "the learner, workers alive with their games/s, queues, pending tasks and rejected "
      "entries of a run served through Redis");
  AddRedisOptions(*status, *redis);
  auto redis_log = std::make_shared<std::string>();
  status
      ->add_option("--redis-log", *redis_log,
                   "Redis's log file (Debian: /var/log/redis/redis-server.log), to name the "
                   "workers whose connections Redis closed for their unread replies")
      ->type_name("FILE");
  auto dir = std::make_shared<std::string>();
  CLI::App* audit = cmd.add_subcommand(
      "audit",
      "check that every self-play game of a run directory is stored once (exit 1 if not) and "
      "list which worker played which game of each gate and ladder match");
  Required(audit->add_option("RUN_DIR", *dir, "the run directory"))->type_name("DIR");
  CommandRun admin = AddClusterAdmin(cmd);
  return [status, audit, redis, redis_log, dir, admin] {
    if (status->parsed()) return Status(*redis, *redis_log);
    if (audit->parsed()) return Audit(*dir);
    return admin();
  };
}

}  // namespace

VELETAS_CLI_COMMAND(
    cluster, "cluster",
    "a run served through Redis: setup, add-worker, remove-worker, upgrade-acl (its users), status "
    "(learner, workers, queues) or audit (every self-play game of a run directory "
    "stored once)",
    SetupCluster);

}  // namespace veletas::app
