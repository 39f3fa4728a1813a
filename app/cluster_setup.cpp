#include "app/cluster_setup.h"
#include "util/names.h"

#include "app/config_network.h"
#include "cluster/keys.h"
#include "model/torch_evaluator.h"

namespace veletas::app {

cluster::RunSettings WorkerSettings(const Config& c) {
  cluster::RunSettings s;
  s.rules = c.game.rules;
  s.size = c.game.size;
  s.selfplay = c.selfplay;
  s.search = c.search;
  s.batching = c.evaluator;
  s.arena = c.arena.arena;
  s.cluster = c.cluster;
  s.max_queued_games = c.cluster.max_queued_games > 0 ? c.cluster.max_queued_games
                                                      : 2 * c.pipeline.games_per_generation;
  return s;
}

util::Result<cluster::RunSettings> TorchRunLoader::Settings(const std::string& config_text) {
  auto c = LoadConfigFromString(config_text, "the config of run " + run_);
  if (!c) return c.error_value();
  config_ = c.value();
  if (overrides_.threads > 0) {
    config_.selfplay.threads = overrides_.threads;
    config_.arena.arena.threads = overrides_.threads;
  }
  if (overrides_.games_in_flight > 0) config_.selfplay.games_in_flight = overrides_.games_in_flight;
  config_.model.device = overrides_.device;
  return WorkerSettings(config_);
}

util::Result<std::unique_ptr<search::Evaluator>> TorchRunLoader::Load(const std::string& path) {
  // The app's one load path: one read of the file, checked against the run's config.
  auto loaded = LoadConfigNetwork(path, config_);
  if (!loaded) return loaded.error_value();
  return std::unique_ptr<search::Evaluator>(std::move(loaded.value().evaluator));
}

CLI::Validator ClusterName() {
  return StatusCheck("NAME", [](const std::string& v) {
    return util::ValidateName(v, "name", cluster::kMaxNameLength);
  });
}

void AddRedisServerOptions(CLI::App& cmd, RedisArgs& args) {
  Required(cmd.add_option("--redis", args.url, "the Redis server (credentials never in the URL)"))
      ->type_name("redis://HOST:PORT")
      ->check(StatusCheck("", [](const std::string& v) {
        auto endpoint = cluster::ParseRedisUrl(v);
        return endpoint ? util::Ok() : util::Status(endpoint.error_value());
      }));
  cmd.add_option("--redis-auth", args.auth_file,
                 "file with the ACL user and password (default: the file named by "
                 "VELETAS_REDIS_AUTH_FILE, else VELETAS_REDIS_USER and VELETAS_REDIS_PASSWORD)")
      ->type_name("FILE");
}

void AddRedisOptions(CLI::App& cmd, RedisArgs& args) {
  AddRedisServerOptions(cmd, args);
  Required(cmd.add_option("--run", args.run, "the run's name"))->check(ClusterName());
}

util::Result<cluster::RedisOptions> RedisOptionsFor(const RedisArgs& args,
                                                    const std::string& client_name) {
  return cluster::MakeRedisOptions(args.url, args.auth_file, client_name);
}

}  // namespace veletas::app
