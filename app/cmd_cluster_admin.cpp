// `veletas cluster setup`, `cluster add-worker`, `cluster remove-worker` and `cluster
// upgrade-acl`: the files of a run's Redis and its workers' users (cluster/transport/redis_setup.h,
// docs/CLUSTER.md).
#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/cluster_setup.h"
#include "app/command.h"
#include "cluster/transport/redis_setup.h"

namespace veletas::app {
namespace {

struct AdminArgs {
  cluster::RedisSetupOptions setup;
  std::string worker;
  std::string url;  // the running Redis
};

int Setup(const AdminArgs& a) {
  if (util::Status s = cluster::WriteRedisSetup(a.setup); !s.ok()) {
    return CommandError("cluster setup", s.error_value());
  }
  const std::string& d = a.setup.dir;
  std::cout << "wrote " << cluster::ConfFile(d) << ", " << cluster::AclFile(d) << ", "
            << cluster::AuthFile(d, "admin") << " and " << cluster::AuthFile(d, "learner")
            << "\nstart Redis with it: redis-server " << cluster::ConfFile(d)
            << " (or `include` it from redis.conf); then add workers with `veletas cluster "
               "add-worker`\n";
  return 0;
}

// Adds (`add`) or removes worker a.worker on the running server at a.url and in DIR/users.acl.
int Change(const AdminArgs& a, bool add, const std::string& command) {
  auto change = cluster::ChangeWorker(a.url, a.setup.dir, a.setup.run, a.worker, add);
  if (!change) return CommandError(command, change.error_value());
  if (change.value().upgraded > 0) {
    std::cout << "upgraded " << change.value().upgraded << " users of "
              << cluster::AclFile(a.setup.dir)
              << " (and the server) to the current rules, passwords kept\n";
  }
  if (a.worker.empty()) {
    std::cout << "redis " << change.value().endpoint << ": users.acl "
              << (change.value().upgraded > 0 ? "upgraded\n" : "was current already\n");
    return 0;
  }
  if (add) {
    std::cout << "wrote " << change.value().auth_file << " (the worker's --redis-auth FILE)\n";
  }
  std::cout << "redis " << change.value().endpoint << ": worker " << a.worker
            << (add ? " has its user and streams\n" : " removed with its streams\n");
  return 0;
}

// --run and --dir of every admin subcommand.
void AddSetupDir(CLI::App& cmd, AdminArgs& a) {
  Required(cmd.add_option("--run", a.setup.run, "the run's name"))->check(ClusterName());
  Required(cmd.add_option("--dir", a.setup.dir, "the setup's directory (users.acl, *.auth)"))
      ->type_name("DIR");
}

}  // namespace

CommandRun AddClusterAdmin(CLI::App& cmd) {
  auto a = std::make_shared<AdminArgs>();
  CLI::App* setup = cmd.add_subcommand(
      "setup",
      "write a run's Redis config fragment, ACL file (default user off) and the learner's and "
      "admin's credentials (0600)");
  AddSetupDir(*setup, *a);
  setup->add_option("--maxmemory", a->setup.maxmemory, "bytes Redis may hold (noeviction)")
      ->capture_default_str();
  setup
      ->add_option("--max-entry-bytes", a->setup.max_entry_bytes,
                   "the learner's cluster.max_entry_bytes: Redis refuses larger requests")
      ->capture_default_str();
  CLI::App* add = cmd.add_subcommand(
      "add-worker", "give worker NAME a Redis user of its own (DIR/NAME.auth) and its streams");
  CLI::App* remove = cmd.add_subcommand(
      "remove-worker", "revoke worker NAME's user and drop its streams and queued games");
  CLI::App* upgrade = cmd.add_subcommand(
      "upgrade-acl",
      "give the learner's and every worker's user of an existing setup the current rules "
      "(users.acl rewritten in place, passwords kept, and applied to the running server)");
  for (CLI::App* c : {add, remove, upgrade}) {
    if (c != upgrade) {
      Required(c->add_option("NAME", a->worker, "the worker's name"))->check(ClusterName());
    }
    AddSetupDir(*c, *a);
    Required(c->add_option("--redis", a->url,
                           "the run's running Redis (changed as the setup's admin user)"))
        ->type_name("redis://HOST:PORT");
  }
  return [a, setup, add, remove, upgrade]() -> int {
    if (setup->parsed()) return Setup(*a);
    if (upgrade->parsed()) return Change(*a, true, "cluster upgrade-acl");
    if (add->parsed()) return Change(*a, true, "cluster add-worker");
    if (remove->parsed()) return Change(*a, false, "cluster remove-worker");
    return -1;
  };
}

}  // namespace veletas::app
