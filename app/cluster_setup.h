// The app's side of the cluster (cluster/ is Torch-free): networks for workers, and the
// connection options from the command line.
#pragma once

#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config.h"
#include "cluster/redis_client.h"
#include "cluster/worker.h"
#include "util/result.h"

namespace veletas::app {

// A worker's overrides of the run's published config.
struct WorkerOverrides {
  int threads = 0;          // self-play threads; 0: the run's
  int games_in_flight = 0;  // per thread; 0: the run's
  std::string device = "auto";
};

// Reads a run's published config with the worker's overrides and loads networks with
// LibTorch (model::TorchEvaluator) for its architecture and the worker's device.
class TorchRunLoader final : public cluster::RunLoader {
 public:
  TorchRunLoader(std::string run, WorkerOverrides overrides)
      : run_(std::move(run)), overrides_(std::move(overrides)) {}
  util::Result<cluster::RunSettings> Settings(const std::string& config_text) override;
  util::Result<std::unique_ptr<search::Evaluator>> Load(const std::string& path) override;

 private:
  std::string run_;
  WorkerOverrides overrides_;
  Config config_;
};

// The settings a worker takes from a run's config.
cluster::RunSettings WorkerSettings(const Config& c);

// What reaches a run served through Redis, from the command line.
struct RedisArgs {
  std::string url;        // redis://HOST:PORT (credentials never in the URL)
  std::string run;        // the run's name (util::ValidateName, at most cluster::kMaxNameLength)
  std::string auth_file;  // ACL user and password; "": VELETAS_REDIS_* of the environment
};

// Declares the required --redis URL (checked by CLI11 as cluster::ParseRedisUrl reads it)
// and --redis-auth FILE.
void AddRedisServerOptions(CLI::App& cmd, RedisArgs& args);

// The same and the required --run NAME (checked as util::ValidateName does, at most 64 characters).
void AddRedisOptions(CLI::App& cmd, RedisArgs& args);

// A CLI11 check that a value is a cluster name (worker ids, run names).
CLI::Validator ClusterName();

// Declares `cluster setup`, `cluster add-worker` and `cluster remove-worker` on `cmd` (the
// `cluster` command; cmd_cluster_admin.cpp). The returned run runs the one parsed (-1 when
// none of them was).
CommandRun AddClusterAdmin(CLI::App& cmd);

// cluster::MakeRedisOptions of parsed `args`.
util::Result<cluster::RedisOptions> RedisOptionsFor(const RedisArgs& args,
                                                    const std::string& client_name);

}  // namespace veletas::app
