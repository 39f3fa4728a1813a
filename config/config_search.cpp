// YAML mapping of the search layer's settings: sections `search` (search::SearchConfig) and
// `evaluator` (search::BatchingConfig). The ranges are the structs' Validate().
#include "config/config.h"

namespace veletas::config {
void ParseSearchSection(ConfigSection& s, search::SearchConfig& out) {
  const std::string algorithm =
      s.Choice("algorithm", out.algorithm == search::Algorithm::kGumbel ? "gumbel" : "puct",
               {"puct", "gumbel"});
  out.algorithm = algorithm == "gumbel" ? search::Algorithm::kGumbel : search::Algorithm::kPuct;
  out.simulations = s.SmallInt("simulations", out.simulations);
  out.leaves_per_batch = s.SmallInt("leaves_per_batch", out.leaves_per_batch);
  out.c_puct_init = s.Float("c_puct_init", out.c_puct_init);
  out.c_puct_base = s.Float("c_puct_base", out.c_puct_base);
  out.fpu_reduction = s.Float("fpu_reduction", out.fpu_reduction);
  out.root_fpu_reduction = s.Float("root_fpu_reduction", out.root_fpu_reduction);
  out.virtual_loss = s.Float("virtual_loss", out.virtual_loss);
  out.root_noise = s.Bool("root_noise", out.root_noise);
  out.dirichlet_alpha_total = s.Float("dirichlet_alpha_total", out.dirichlet_alpha_total);
  out.dirichlet_epsilon = s.Float("dirichlet_epsilon", out.dirichlet_epsilon);
  out.temperature = s.Float("temperature", out.temperature);
  out.temperature_turns = s.SmallInt("temperature_turns", out.temperature_turns);
  out.final_temperature = s.Float("final_temperature", out.final_temperature);
  out.gumbel_considered = s.SmallInt("gumbel_considered", out.gumbel_considered);
  out.gumbel_c_visit = s.Float("gumbel_c_visit", out.gumbel_c_visit);
  out.gumbel_c_scale = s.Float("gumbel_c_scale", out.gumbel_c_scale);
  out.reuse_tree = s.Bool("reuse_tree", out.reuse_tree);
  out.solver = s.Bool("solver", out.solver);
  out.max_nodes = s.Int("max_nodes", out.max_nodes);
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

void ParseEvaluatorSection(ConfigSection& s, search::BatchingConfig& out) {
  out.max_batch = s.SmallInt("max_batch", out.max_batch);
  out.max_wait_us = s.SmallInt("max_wait_us", out.max_wait_us);
  out.cache_size = s.SmallInt("cache_size", out.cache_size);
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
