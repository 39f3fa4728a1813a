// Settings of the search layer: the MCTS (PUCT or Gumbel root), the batching evaluator and
// the UCT-rollout baseline. Data with defaults, and each struct's Validate() with its allowed
// ranges: one table of settings per struct (search_config.cpp), which config/config_search.cpp
// reads (sections `search` and `evaluator`).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::search {

// How the root chooses what to simulate and what the policy target is.
enum class Algorithm : uint8_t {
  // AlphaZero PUCT everywhere; Dirichlet noise at the root; target = root visit counts;
  // move chosen from the visit counts with a temperature.
  kPuct = 0,
  // Gumbel AlphaZero (Danihelka et al. 2022): Gumbel top-k sampling of m root actions,
  // sequential halving over the simulation budget, target = the completed-Q improved
  // policy; non-root nodes choose deterministically from the improved policy (the paper's
  // rule). Meant for small budgets (e.g. 16-64 simulations).
  kGumbel = 1,
  // Plain UCT (UCB1: Q + c_uct * sqrt(ln N / n), unvisited children first in prior order;
  // priors otherwise unused), for the random-playout baseline (search/uct_player.h).
  kUct = 2,
};

// The algorithm's name as players, reports and the config write it: "puct", "gumbel" or
// "uct".
const char* AlgorithmName(Algorithm a);

// The algorithms a config file may name (`search.algorithm`): "puct", "gumbel".
inline constexpr util::Choice<Algorithm> kAlgorithmChoices[] = {{Algorithm::kPuct, "puct"},
                                                                {Algorithm::kGumbel, "gumbel"}};

struct SearchConfig {
  Algorithm algorithm = Algorithm::kPuct;
  // New simulations per search (one search per sub-decision). Visits a reused subtree
  // already had come on top.
  int simulations = 200;
  // Leaves one search may keep in flight between evaluations (virtual loss); the batch a
  // driver collects per search and round. 1 = plain sequential MCTS.
  int leaves_per_batch = 8;

  // PUCT exploration: c(N) = c_puct_init + log((N + c_puct_base + 1) / c_puct_base).
  float c_puct_init = 1.25f;
  float c_puct_base = 19652.0f;
  // First-play urgency: an unvisited child's Q is the parent's Q minus
  // fpu_reduction * sqrt(sum of the priors of the visited children); root_fpu_reduction at
  // the root.
  float fpu_reduction = 0.25f;
  float root_fpu_reduction = 0.25f;
  // Each leaf in flight counts as this many losses on its path until evaluated.
  float virtual_loss = 1.0f;

  // Root noise: Dirichlet noise on the root priors (PUCT) or Gumbel noise on the sampled
  // actions (Gumbel). Off for evaluation play.
  bool root_noise = true;
  // Dirichlet(alpha) with alpha = dirichlet_alpha_total / number of legal actions, mixed in
  // with weight dirichlet_epsilon.
  float dirichlet_alpha_total = 10.0f;
  float dirichlet_epsilon = 0.25f;

  // PUCT move choice: visits^(1/temperature) while fewer than temperature_turns full turns
  // have been played (Position::TurnsPlayed), then final_temperature; 0 = most visits.
  float temperature = 1.0f;
  int temperature_turns = 10;
  float final_temperature = 0.0f;

  // Gumbel: m, the number of root actions sampled (Gumbel top-k) for sequential halving;
  // sigma(q) = (gumbel_c_visit + max_b N(b)) * gumbel_c_scale * q with completed Q values
  // normalised to [0, 1] (defaults as in DeepMind's mctx). At a pie decision the swap is
  // always one of the m sampled actions (whatever its prior), so that the search values it
  // against the placements; the target still uses the network's own logits.
  int gumbel_considered = 16;
  float gumbel_c_visit = 50.0f;
  float gumbel_c_scale = 0.1f;

  // kUct exploration constant (Q in [-1, 1]).
  float c_uct = 1.0f;

  // Keep the chosen child's subtree when the root advances (across the sub-decisions of a
  // turn and across turns).
  bool reuse_tree = true;
  // Propagate proven wins and losses (terminal results) up the tree and prefer proven wins
  // / avoid proven losses when selecting (MCTS-solver).
  bool solver = true;

  // The most nodes one tree may hold: a search that reaches it stops early (its result says
  // so, SearchResult::node_limit), so that no budget (e.g. a huge visit count or time) can
  // grow a tree past the machine's memory. 0 = automatic: DefaultMaxNodes(); at most
  // MaxNodesLimit().
  int64_t max_nodes = 0;

  // The settings of section `search`, one row each (key, member, range, help; the table is
  // search_config.cpp). c_uct is no config key (its range is checked in Validate()).
  static std::span<const util::Field<SearchConfig>> Fields();
  // Ok when usable, else the setting that is not (bad input, "simulations: 0 is out of
  // range [1, 1000000]"): the rows of Fields(), then c_uct and the node limit.
  util::Status Validate() const;
};

// The largest a tree node can be in bytes: the node and an edge for every action of a 10x10
// board.
int64_t MaxNodeBytes();

// The node budget for `memory_bytes` of memory: a quarter of it at MaxNodeBytes() a node, at
// least 1,000,000 nodes.
int64_t MaxNodesForMemory(int64_t memory_bytes);

// The node budget of a tree when SearchConfig::max_nodes is 0: MaxNodesForMemory of the
// machine's physical memory (4 GiB where it cannot be read; 2 GiB in WebAssembly).
// Thread-safe.
int64_t DefaultMaxNodes();

// The most nodes a tree may be given (SearchConfig::max_nodes, the engine protocol's
// `setoption max_nodes`): as many nodes of MaxNodeBytes() as the machine's physical memory
// holds, at least 1,000,000. Thread-safe.
int64_t MaxNodesLimit();

// "<max_nodes> is more than this machine's memory holds: at most <MaxNodesLimit()> nodes (...)".
std::string TooManyNodes(int64_t max_nodes);

// The copy of `c` used for evaluation play: no root noise, temperature 0 throughout.
inline SearchConfig ForPlay(SearchConfig c) {
  c.root_noise = false;
  c.temperature = 0.0f;
  c.final_temperature = 0.0f;
  return c;
}

// The batching front end (search/batching_evaluator.h).
struct BatchingConfig {
  // Largest batch sent to the backend.
  int max_batch = 256;
  // How long a partly filled batch waits for more requests before it is sent.
  int max_wait_us = 1000;
  // Cached results (entries of one EvalOutput each, about 410 bytes); 0 disables the cache.
  int cache_size = 65536;

  // The settings of section `evaluator`, one row each (search_config.cpp).
  static std::span<const util::Field<BatchingConfig>> Fields();
  // Ok when usable (the rows of Fields()), else the setting that is not.
  util::Status Validate() const;
};

// The UCT-rollout baseline player (search/uct_player.h).
struct UctConfig {
  // Random playouts per full turn (summed over threads).
  int playouts = 1000;
  // Root-parallel trees, one per thread; their root statistics are merged.
  int threads = 2;
  // UCB1 exploration constant: Q + c * sqrt(ln N / n) with Q in [-1, 1].
  float c_uct = 1.0f;
};

}  // namespace veletas::search
