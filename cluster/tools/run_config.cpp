#include "cluster/tools/run_config.h"

#include <cstdlib>

namespace veletas::cluster {

RunSettings RunSettingsOf(const config::Config& c) {
  RunSettings s;
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

util::Result<RunSettings> ReadRunConfig(const std::string& config_text, const std::string& source,
                                        const WorkerOverrides& overrides, config::Config& config) {
  auto c = config::LoadConfigFromString(config_text, source);
  if (!c) return c.error_value();
  config = c.value();
  if (overrides.threads > 0) {
    config.selfplay.threads = overrides.threads;
    config.arena.arena.threads = overrides.threads;
  }
  if (overrides.games_in_flight > 0) config.selfplay.games_in_flight = overrides.games_in_flight;
  config.model.device = overrides.device;
  return RunSettingsOf(config);
}

WorkerBench WorkerBenchOf(const config::Config& c, const RedisOptions& redis,
                          const std::string& work, double seconds) {
  WorkerBench b;
  b.settings = RunSettingsOf(c);
  b.local_games = 10 * c.pipeline.games_per_generation;
  // A queue nobody empties must not fill up.
  b.config_text = c.resolved_yaml;
  if (c.cluster.redis.empty()) {
    b.config_text += "cluster:\n  redis: redis://" + redis.endpoint.ToString() +
                     "\n  max_queued_games: 100000000\n";
  }
  b.redis = redis;
  b.work = work;
  b.seconds = seconds;
  return b;
}

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

}  // namespace veletas::cluster
