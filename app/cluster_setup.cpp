#include "app/cluster_setup.h"
#include "util/names.h"
#include "util/redis_url.h"

#include "app/config_network.h"
#include "cluster/transport/keys.h"
#include "model/network_evaluator.h"

namespace veletas::app {

util::Result<cluster::RunSettings> TorchRunLoader::Settings(const std::string& config_text) {
  return cluster::ReadRunConfig(config_text, "the config of run " + run_, overrides_, config_);
}

util::Result<std::unique_ptr<search::Evaluator>> TorchRunLoader::Load(const std::string& path) {
  // The app's one load path: one read of the file, checked against the run's config.
  auto loaded = LoadConfigNetwork(path, config_);
  if (!loaded) return loaded.error_value();
  precision_ = loaded.value().evaluator->Precision();
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
        auto endpoint = util::ParseRedisUrl(v);
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

}  // namespace veletas::app
