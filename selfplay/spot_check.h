// Spot checks of a worker's training targets (docs/CLUSTER.md, "Spot checks"). With each
// recorded sample a worker sends the summary of its root search (RootSummary: the visited
// actions with their visits and Q, and the action the search chose). The learner checks a
// random few of them against the same network:
// - the policy target is the improved policy the summary implies with the network's own
//   priors and value (search/improved_policy.h; PUCT: the visit shares), within
//   `policy_tv` total variation (what differs between two machines' arithmetic);
// - the root value is the chosen action's Q (or its proven result), as the search takes it;
// - an action visited once has as its Q the network's value of the position it leads to
//   (sign from the root's player to move), or the exact result where the game ends there,
//   within `value` (and a proof claimed for it is that result).
// - an action visited n > 1 times has a Q that n visits can reach from that value: its first
//   visit was the network's value and each later one moves the sum by at most 1 (exactly the
//   result, every visit, where the game ends there).
// What it cannot see: within that reach the Q of an action visited more than once is taken as
// sent, and so are the summary's visit counts and chosen action (the chosen
// action also depends on the search's Gumbel noise and on visits reused from the previous
// sub-decision's tree, which the summary does not carry).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/sample.h"
#include "search/evaluator.h"
#include "search/mcts.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "util/result.h"

namespace veletas::selfplay {

// One visited action at the root of a recorded search.
struct RootChild {
  uint8_t action = 0;
  uint32_t visits = 0;  // >= 1
  float q = 0.0f;       // for the root's player to move, in [-1, 1]
  int8_t proven = 0;    // +1, -1 or 0 (search::ChildInfo::proven)
};

// The root of one recorded search, as the spot check needs it.
struct RootSummary {
  uint8_t chosen = 0;               // search::SearchResult::action
  std::vector<RootChild> children;  // the visited actions, in action order
};

// The summary of the finished search `r`.
RootSummary SummarizeRoot(const search::SearchResult& r);

struct SpotCheckTolerance {
  double policy_tv = 0.02;  // total variation between the sent and the recomputed target
  double value = 0.02;      // between a sent Q and the network's value
};

// What one check found.
struct SpotCheckReport {
  double policy_tv = 0;    // of the target
  double value_error = 0;  // the largest of the single-visit actions
  int evaluations = 0;     // positions the network evaluated
};

// Checks `sample` (a position with more than one legal action) against its root summary with
// the network `evaluator` and the search settings the worker used. Ok with the report when
// every check passes; else bad input whose message says which check failed and by how much
// (at most about 200 characters). Thread-safety: that of `evaluator`.
util::Result<SpotCheckReport> SpotCheck(const data::Sample& sample, const RootSummary& summary,
                                        const search::SearchConfig& search,
                                        search::Evaluator& evaluator,
                                        const SpotCheckTolerance& tolerance);

// The resignation check: a game that a worker says ended by resignation is searched again
// by the learner at its last position (the resigning player to move at a play-phase turn
// start), afresh, with the network that played it and the workers' search settings. The
// resignation stands when that search's root value for the resigning player (the value the
// resignation rule reads, search::SearchResult::value) is at most the workers' threshold plus
// `margin`; the margin covers what differs between the worker's search and this one (visits
// reused from the previous turn, the search's noise). A resignation in a run whose
// resignation is off never stands.
struct ResignCheckSettings {
  float threshold = -1.0f;  // selfplay.resign_threshold (<= -1: resignation off)
  int simulations = 1;      // selfplay.full_simulations
  int leaves = 1;           // selfplay.leaves_per_search
  double margin = 0.5;      // cluster.spot_check_resign_margin
};

// The settings of self-play config `c` with `margin`.
ResignCheckSettings ResignCheckSettingsOf(const SelfplayConfig& c, double margin);

// What one resignation check found.
struct ResignCheckReport {
  float value = 0;      // the search's root value for the resigning player
  int evaluations = 0;  // simulations of the search
};

// Checks a resignation at `end` (a position whose player to move resigned). Ok with the
// report when it stands; else bad input saying by how much it does not (at most about 200
// characters). Deterministic (the search is seeded from the position). Thread-safety: that of
// `evaluator`.
util::Result<ResignCheckReport> CheckResignation(const rules::Position& end,
                                                 const search::SearchConfig& search,
                                                 const ResignCheckSettings& settings,
                                                 search::Evaluator& evaluator);

}  // namespace veletas::selfplay
