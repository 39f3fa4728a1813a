// The Gumbel search's training target at one node as a pure function of what the node holds:
// the improved policy softmax(log prior + sigma(completed Q)) of Danihelka et al. (2022), with
// the mixed value completing the Q of unvisited actions (as DeepMind's mctx). Mcts::Result
// computes its target with it, and the learner's spot check (selfplay/spot_check.h) computes
// it again from a worker's root summary, so that the two agree by construction.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace veletas::search {

// The smallest prior whose logarithm the search takes (priors of 0 stay finite).
inline constexpr float kMinPrior = 1e-30f;

// One visited action of a node: its index among the node's actions, completed visits and Q
// (mean value for the node's player to move).
struct VisitedAction {
  int index = 0;
  uint32_t visits = 0;
  float q = 0.0f;
};

// The mixed value: the node's own network value blended with the prior-weighted mean Q of
// its visited actions, weighted by their visits. `priors` indexed like VisitedAction::index.
float MixedValue(std::span<const float> priors, float raw_value,
                 std::span<const VisitedAction> visited);

// The improved policy over the node's actions (same order as `priors`, sums to 1).
// Preconditions: priors non-empty; every visited index in range and distinct.
std::vector<float> ImprovedPolicy(std::span<const float> priors, float raw_value,
                                  std::span<const VisitedAction> visited, float c_visit,
                                  float c_scale);

}  // namespace veletas::search
