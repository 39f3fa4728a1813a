#include "search/search_config.h"

#include "rules/geometry.h"
#include "util/settings_check.h"

namespace veletas::search {

const char* AlgorithmName(Algorithm a) {
  // UCT is not a config choice (the rollout baseline's); the others are named by the table.
  if (a == Algorithm::kUct) return "uct";
  return util::ChoiceName<Algorithm>(kAlgorithmChoices, a);
}

namespace {

using S = SearchConfig;
const util::Field<S> kSearchFields[] = {
    util::EnumField<&S::algorithm, kAlgorithmChoices>("algorithm", "root algorithm"),
    util::IntField("simulations", &S::simulations, 1, 1'000'000, "new simulations per search"),
    util::IntField("leaves_per_batch", &S::leaves_per_batch, 1, 1024,
                   "leaves in flight per search (virtual loss)"),
    util::RealField("c_puct_init", &S::c_puct_init, 0.0, 100.0, "PUCT exploration constant"),
    util::RealField("c_puct_base", &S::c_puct_base, 1.0, 1e9, "PUCT exploration growth base"),
    util::RealField("fpu_reduction", &S::fpu_reduction, 0.0, 2.0,
                    "first-play urgency reduction below the root"),
    util::RealField("root_fpu_reduction", &S::root_fpu_reduction, 0.0, 2.0,
                    "first-play urgency reduction at the root"),
    util::RealField("virtual_loss", &S::virtual_loss, 0.0, 10.0, "losses per leaf in flight"),
    util::BoolField("root_noise", &S::root_noise, "Dirichlet or Gumbel noise at the root"),
    util::RealField("dirichlet_alpha_total", &S::dirichlet_alpha_total, 0.001, 1000.0,
                    "Dirichlet alpha times the number of legal actions"),
    util::RealField("dirichlet_epsilon", &S::dirichlet_epsilon, 0.0, 1.0,
                    "weight of the Dirichlet noise"),
    util::RealField("temperature", &S::temperature, 0.0, 100.0, "move temperature (PUCT)"),
    util::IntField("temperature_turns", &S::temperature_turns, 0, 100'000,
                   "full turns played at `temperature`"),
    util::RealField("final_temperature", &S::final_temperature, 0.0, 100.0,
                    "move temperature afterwards"),
    util::IntField("gumbel_considered", &S::gumbel_considered, 1, rules::kMaxActions,
                   "root actions sampled (Gumbel)"),
    util::RealField("gumbel_c_visit", &S::gumbel_c_visit, 0.0, 1e6, "Gumbel sigma's c_visit"),
    util::RealField("gumbel_c_scale", &S::gumbel_c_scale, 0.0, 1000.0, "Gumbel sigma's c_scale"),
    util::BoolField("reuse_tree", &S::reuse_tree, "keep the chosen child's subtree"),
    util::BoolField("solver", &S::solver, "propagate proven results (MCTS-solver)"),
    util::IntField("max_nodes", &S::max_nodes, 0, int64_t{1} << 40,
                   "most nodes of one tree; 0 = automatic"),
};

using B = BatchingConfig;
const util::Field<B> kBatchingFields[] = {
    util::IntField("max_batch", &B::max_batch, 2, 65536, "largest batch sent to the backend"),
    util::IntField("max_wait_us", &B::max_wait_us, 0, 10'000'000,
                   "how long a partly filled batch waits (microseconds)"),
    util::IntField("cache_size", &B::cache_size, 0, 1 << 24, "cached results; 0 = no cache"),
};

}  // namespace

std::span<const util::Field<SearchConfig>> SearchConfig::Fields() { return kSearchFields; }

util::Status SearchConfig::Validate() const {
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.Real("c_uct", c_uct, 0.0, 100.0)
      .That(max_nodes <= MaxNodesLimit(), "max_nodes",
            max_nodes <= MaxNodesLimit() ? "" : TooManyNodes(max_nodes));
  return c.Result();
}

std::span<const util::Field<BatchingConfig>> BatchingConfig::Fields() { return kBatchingFields; }

util::Status BatchingConfig::Validate() const { return util::ValidateFields(*this); }

}  // namespace veletas::search
