#include "search/search_config.h"

#include "rules/geometry.h"
#include "util/settings_check.h"

namespace veletas::search {

const char* AlgorithmName(Algorithm a) {
  switch (a) {
    case Algorithm::kPuct:
      return "puct";
    case Algorithm::kGumbel:
      return "gumbel";
    case Algorithm::kUct:
      return "uct";
  }
  return "?";
}

util::Status SearchConfig::Validate() const {
  util::SettingsCheck c;
  c.Int("simulations", simulations, 1, 1'000'000)
      .Int("leaves_per_batch", leaves_per_batch, 1, 1024)
      .Real("c_puct_init", c_puct_init, 0.0, 100.0)
      .Real("c_puct_base", c_puct_base, 1.0, 1e9)
      .Real("fpu_reduction", fpu_reduction, 0.0, 2.0)
      .Real("root_fpu_reduction", root_fpu_reduction, 0.0, 2.0)
      .Real("virtual_loss", virtual_loss, 0.0, 10.0)
      .Real("dirichlet_alpha_total", dirichlet_alpha_total, 0.001, 1000.0)
      .Real("dirichlet_epsilon", dirichlet_epsilon, 0.0, 1.0)
      .Real("temperature", temperature, 0.0, 100.0)
      .Int("temperature_turns", temperature_turns, 0, 100'000)
      .Real("final_temperature", final_temperature, 0.0, 100.0)
      .Int("gumbel_considered", gumbel_considered, 1, rules::kMaxActions)
      .Real("gumbel_c_visit", gumbel_c_visit, 0.0, 1e6)
      .Real("gumbel_c_scale", gumbel_c_scale, 0.0, 1000.0)
      .Real("c_uct", c_uct, 0.0, 100.0)
      .Int("max_nodes", max_nodes, 0, int64_t{1} << 40)
      .That(max_nodes <= MaxNodesLimit(), "max_nodes",
            max_nodes <= MaxNodesLimit() ? "" : TooManyNodes(max_nodes));
  return c.Result();
}

util::Status BatchingConfig::Validate() const {
  util::SettingsCheck c;
  c.Int("max_batch", max_batch, 2, 65536)
      .Int("max_wait_us", max_wait_us, 0, 10'000'000)
      .Int("cache_size", cache_size, 0, 1 << 24);
  return c.Result();
}

}  // namespace veletas::search
