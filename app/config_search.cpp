// YAML mapping of the search layer's settings: sections `search` (search::SearchConfig) and
// `evaluator` (search::BatchingConfig).
#include <cstdio>
#include <cstdlib>

#include "app/config.h"

namespace veletas::app {
void ParseSearchSection(ConfigSection& s, search::SearchConfig& out) {
  const std::string algorithm =
      s.Choice("algorithm", out.algorithm == search::Algorithm::kGumbel ? "gumbel" : "puct",
               {"puct", "gumbel"});
  out.algorithm = algorithm == "gumbel" ? search::Algorithm::kGumbel : search::Algorithm::kPuct;
  out.simulations = s.SmallInt("simulations", out.simulations, 1, 1'000'000);
  out.leaves_per_batch = s.SmallInt("leaves_per_batch", out.leaves_per_batch, 1, 1024);
  out.c_puct_init = s.Float("c_puct_init", out.c_puct_init, 0.0, 100.0);
  out.c_puct_base = s.Float("c_puct_base", out.c_puct_base, 1.0, 1e9);
  out.fpu_reduction = s.Float("fpu_reduction", out.fpu_reduction, 0.0, 2.0);
  out.root_fpu_reduction = s.Float("root_fpu_reduction", out.root_fpu_reduction, 0.0, 2.0);
  out.virtual_loss = s.Float("virtual_loss", out.virtual_loss, 0.0, 10.0);
  out.root_noise = s.Bool("root_noise", out.root_noise);
  out.dirichlet_alpha_total =
      s.Float("dirichlet_alpha_total", out.dirichlet_alpha_total, 0.001, 1000.0);
  out.dirichlet_epsilon = s.Float("dirichlet_epsilon", out.dirichlet_epsilon, 0.0, 1.0);
  out.temperature = s.Float("temperature", out.temperature, 0.0, 100.0);
  out.temperature_turns = s.SmallInt("temperature_turns", out.temperature_turns, 0, 100'000);
  out.final_temperature = s.Float("final_temperature", out.final_temperature, 0.0, 100.0);
  out.gumbel_considered =
      s.SmallInt("gumbel_considered", out.gumbel_considered, 1, rules::kMaxActions);
  out.gumbel_c_visit = s.Float("gumbel_c_visit", out.gumbel_c_visit, 0.0, 1e6);
  out.gumbel_c_scale = s.Float("gumbel_c_scale", out.gumbel_c_scale, 0.0, 1000.0);
  out.reuse_tree = s.Bool("reuse_tree", out.reuse_tree);
  out.solver = s.Bool("solver", out.solver);
  out.max_nodes = s.Int("max_nodes", out.max_nodes, 0, int64_t{1} << 40);
  s.RejectUnknownKeys();
}

void ParseEvaluatorSection(ConfigSection& s, search::BatchingConfig& out) {
  out.max_batch = s.SmallInt("max_batch", out.max_batch, 2, 65536);
  out.max_wait_us = s.SmallInt("max_wait_us", out.max_wait_us, 0, 10'000'000);
  out.cache_size = s.SmallInt("cache_size", out.cache_size, 0, 1 << 24);
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
