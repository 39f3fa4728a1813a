// The app's side of the cluster (cluster/ is Torch-free): networks for workers, and the
// connection options from the command line.
#pragma once

#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "cluster/tools/run_config.h"
#include "cluster/transport/redis_client.h"
#include "cluster/worker/worker.h"
#include "config/config.h"
#include "util/result.h"

namespace veletas::app {

// Reads a run's published config with the worker's overrides and loads networks with
// LibTorch (model::NetworkEvaluator) for its architecture and the worker's device.
class TorchRunLoader final : public cluster::RunLoader {
 public:
  TorchRunLoader(std::string run, cluster::WorkerOverrides overrides)
      : run_(std::move(run)), overrides_(std::move(overrides)) {}
  util::Result<cluster::RunSettings> Settings(const std::string& config_text) override;
  util::Result<std::unique_ptr<search::Evaluator>> Load(const std::string& path) override;
  std::optional<model::InferencePrecision> LastPrecision() const override { return precision_; }

 private:
  std::optional<model::InferencePrecision> precision_;
  std::string run_;
  cluster::WorkerOverrides overrides_;
  config::Config config_;
};

// What reaches a run served through Redis, from the command line.
struct RedisArgs {
  std::string url;        // redis://HOST:PORT (credentials never in the URL)
  std::string run;        // the run's name (util::ValidateName, at most cluster::kMaxNameLength)
  std::string auth_file;  // ACL user and password; "": VELETAS_REDIS_* of the environment
};

// Declares the required --redis URL (checked by CLI11 as util::ParseRedisUrl reads it)
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

}  // namespace veletas::app
