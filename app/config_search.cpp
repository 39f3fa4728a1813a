// YAML mapping of the search layer's settings: sections `search` (search::SearchConfig) and
// `evaluator` (search::BatchingConfig).
#include <cstdio>
#include <cstdlib>

#include "app/config.h"

namespace veletas::app {
namespace {

// A float setting. The default is passed on as its shortest decimal form, so that the
// resolved config shows 0.1 rather than 0.10000000149011612.
float Real(ConfigSection& s, const std::string& key, float fallback, double lo, double hi) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", static_cast<double>(fallback));
  return static_cast<float>(s.Real(key, std::strtod(text, nullptr), lo, hi));
}

int Int(ConfigSection& s, const std::string& key, int fallback, long long lo, long long hi) {
  return static_cast<int>(s.Int(key, fallback, lo, hi));
}

}  // namespace

void ParseSearchSection(ConfigSection& s, search::SearchConfig& out) {
  const std::string algorithm =
      s.Choice("algorithm", out.algorithm == search::Algorithm::kGumbel ? "gumbel" : "puct",
               {"puct", "gumbel"});
  out.algorithm = algorithm == "gumbel" ? search::Algorithm::kGumbel : search::Algorithm::kPuct;
  out.simulations = Int(s, "simulations", out.simulations, 1, 1'000'000);
  out.leaves_per_batch = Int(s, "leaves_per_batch", out.leaves_per_batch, 1, 1024);
  out.c_puct_init = Real(s, "c_puct_init", out.c_puct_init, 0.0, 100.0);
  out.c_puct_base = Real(s, "c_puct_base", out.c_puct_base, 1.0, 1e9);
  out.fpu_reduction = Real(s, "fpu_reduction", out.fpu_reduction, 0.0, 2.0);
  out.root_fpu_reduction = Real(s, "root_fpu_reduction", out.root_fpu_reduction, 0.0, 2.0);
  out.virtual_loss = Real(s, "virtual_loss", out.virtual_loss, 0.0, 10.0);
  out.root_noise = s.Bool("root_noise", out.root_noise);
  out.dirichlet_alpha_total =
      Real(s, "dirichlet_alpha_total", out.dirichlet_alpha_total, 0.001, 1000.0);
  out.dirichlet_epsilon = Real(s, "dirichlet_epsilon", out.dirichlet_epsilon, 0.0, 1.0);
  out.temperature = Real(s, "temperature", out.temperature, 0.0, 100.0);
  out.temperature_turns = Int(s, "temperature_turns", out.temperature_turns, 0, 100'000);
  out.final_temperature = Real(s, "final_temperature", out.final_temperature, 0.0, 100.0);
  out.gumbel_considered = Int(s, "gumbel_considered", out.gumbel_considered, 1, rules::kMaxActions);
  out.gumbel_c_visit = Real(s, "gumbel_c_visit", out.gumbel_c_visit, 0.0, 1e6);
  out.gumbel_c_scale = Real(s, "gumbel_c_scale", out.gumbel_c_scale, 0.0, 1000.0);
  out.reuse_tree = s.Bool("reuse_tree", out.reuse_tree);
  out.solver = s.Bool("solver", out.solver);
  s.RejectUnknownKeys();
}

void ParseEvaluatorSection(ConfigSection& s, search::BatchingConfig& out) {
  out.max_batch = Int(s, "max_batch", out.max_batch, 2, 65536);
  out.max_wait_us = Int(s, "max_wait_us", out.max_wait_us, 0, 10'000'000);
  out.cache_size = Int(s, "cache_size", out.cache_size, 0, 1 << 24);
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
