#include "selfplay/spot_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "search/improved_policy.h"
#include "search/terminal_value.h"

namespace veletas::selfplay {
namespace {

// A failed check (bad input: the worker's data), converting to any Result.
util::Error Failed(const std::string& what) {
  return util::Error{"spot check: " + what, util::ErrorKind::kBadInput};
}

// The legal actions of `pos` in the order Mcts::Expand lists them, and the network's priors
// over them as the search normalises them.
struct RootPriors {
  std::vector<int> actions;
  std::vector<float> priors;
};

RootPriors PriorsOf(const rules::Position& pos, const search::EvalOutput& eval) {
  RootPriors p;
  const rules::ActionSet legal = pos.LegalActions();
  for (int sq : legal.squares) p.actions.push_back(sq);
  if (legal.pass) p.actions.push_back(pos.PassAction());
  double sum = 0;
  for (int a : p.actions) {
    p.priors.push_back(search::PriorWeight(eval.policy[a]));
    sum += p.priors.back();
  }
  const int count = static_cast<int>(p.priors.size());
  for (float& x : p.priors) x = search::NormalizedPrior(x, sum, count);
  return p;
}

// Checks the summary's form against the position: legal, distinct actions with visits, Q in
// [-1, 1], a legal chosen action. Returns the index of each child's action among `actions`.
util::Result<std::vector<int>> IndexChildren(const RootSummary& summary,
                                             const std::vector<int>& actions) {
  std::map<int, int> index;
  for (size_t i = 0; i < actions.size(); ++i) index[actions[i]] = static_cast<int>(i);
  std::vector<int> out;
  std::vector<bool> seen(actions.size());
  for (const RootChild& c : summary.children) {
    auto it = index.find(c.action);
    if (it == index.end() || seen[it->second] || c.visits == 0 || !(std::abs(c.q) <= 1.0f) ||
        std::abs(c.proven) > 1) {
      return util::Result<std::vector<int>>::Error(
          fmt::format("spot check: the summary's action {} is illegal, repeated or has no visits "
                      "or a Q outside [-1, 1]",
                      c.action));
    }
    seen[it->second] = true;
    out.push_back(it->second);
  }
  if (!index.count(summary.chosen)) {
    return util::Result<std::vector<int>>::Error(
        fmt::format("spot check: the chosen action {} is illegal", summary.chosen));
  }
  return out;
}

// The root value the search records for the summary's chosen action: search::ActionValue's
// rule (+-1 when proven, Q when visited, else the mixed value) on the worker's summary.
float ChosenValue(const RootSummary& summary, float mixed) {
  for (const RootChild& c : summary.children) {
    if (c.action != summary.chosen) continue;
    return c.proven != 0 ? static_cast<float>(c.proven) : c.q;
  }
  return mixed;
}

double TotalVariation(const data::Sample& sample, const std::vector<int>& actions,
                      const std::vector<float>& expected) {
  std::map<int, double> diff;
  for (size_t i = 0; i < actions.size(); ++i) diff[actions[i]] = expected[i];
  for (const data::PolicyEntry& e : sample.policy) diff[e.action] -= e.prob;
  double tv = 0;
  for (const auto& [a, d] : diff) tv += std::abs(d);
  return tv / 2;
}

// Evaluates, in one batch, the root and every non-terminal position a visited action leads
// to (in the summary's order). Fails on an action that is illegal at the root.
util::Result<std::vector<search::EvalOutput>> EvaluateRootAndChildren(
    const rules::Position& pos, const RootSummary& summary, search::Evaluator& evaluator) {
  std::vector<rules::Position> positions{pos};
  for (const RootChild& c : summary.children) {
    rules::Position next = pos;
    if (!pos.IsLegal(c.action)) return Failed("an illegal action in the summary");
    next.Apply(c.action);
    if (!next.IsTerminal()) positions.push_back(next);
  }
  std::vector<search::EvalOutput> out(positions.size());
  evaluator.Evaluate(positions, out);
  return out;
}

// The summary's visited actions as the improved-policy functions take them, and their
// visits in all.
struct RootVisits {
  std::vector<search::VisitedAction> visited;
  uint32_t total = 0;
};

// `index`: each child's action's index among the root's legal actions (IndexChildren).
RootVisits VisitsOf(const RootSummary& summary, const std::vector<int>& index) {
  RootVisits v;
  for (size_t i = 0; i < summary.children.size(); ++i) {
    const RootChild& c = summary.children[i];
    v.visited.push_back({index[i], c.visits, c.q});
    v.total += c.visits;
  }
  return v;
}

// The policy target the summary implies over `root.actions`: Gumbel's improved policy from
// the network's priors and value `raw`; PUCT's visit shares (the priors when nothing was
// visited).
std::vector<float> ExpectedPolicy(const search::SearchConfig& search, const RootPriors& root,
                                  float raw, const RootVisits& visits) {
  if (search.algorithm == search::Algorithm::kGumbel) {
    return search::ImprovedPolicy(root.priors, raw, visits.visited, search.gumbel_c_visit,
                                  search.gumbel_c_scale);
  }
  std::vector<float> expected = root.priors;
  if (visits.total > 0) {
    std::fill(expected.begin(), expected.end(), 0.0f);
    for (const search::VisitedAction& v : visits.visited)
      expected[v.index] = static_cast<float>(v.visits) / static_cast<float>(visits.total);
  }
  return expected;
}

// The sample's policy target within `tolerance.policy_tv` of `expected`; records the
// distance in `report`.
util::Status CheckPolicy(const data::Sample& sample, const std::vector<int>& actions,
                         const std::vector<float>& expected, const SpotCheckTolerance& tolerance,
                         SpotCheckReport& report) {
  report.policy_tv = TotalVariation(sample, actions, expected);
  if (report.policy_tv > tolerance.policy_tv) {
    return Failed(
        fmt::format("the policy target is {:.3f} (total variation) from the one its "
                    "summary implies; at most {:.3f} expected",
                    report.policy_tv, tolerance.policy_tv));
  }
  return util::Ok();
}

// The sample's root value is the chosen action's value (ChosenValue; `mixed` where it was
// not visited), clamped into [-1, 1].
util::Status CheckRootValue(const data::Sample& sample, const RootSummary& summary, float mixed) {
  const float value = std::clamp(ChosenValue(summary, mixed), -1.0f, 1.0f);
  if (std::abs(value - sample.root_value) > 1e-4f) {
    return Failed(fmt::format("the root value {:.4f} is not the chosen action's {:.4f}",
                              sample.root_value, value));
  }
  return util::Ok();
}

// The value of `next` (the position a root child leads to) for the root's player to move:
// the exact result where the game ends there, else the network's value as the search takes
// it, read from out[next_eval] (and next_eval advanced past it).
float ChildTruth(const rules::Position& root, const rules::Position& next,
                 const std::vector<search::EvalOutput>& out, size_t& next_eval) {
  float truth =
      next.IsTerminal() ? search::TerminalValue(next) : search::SearchValue(out[next_eval++].value);
  if (next.ToMovePlayer() != root.ToMovePlayer()) truth = -truth;
  return truth;
}

// A child visited n > 1 times: its Q within n visits' reach of `truth`. Its first visit was
// the network's value (every visit, where the game ends there); each later one moved the
// sum by at most 1.
util::Status CheckRevisitedChild(const RootChild& c, bool terminal, float truth,
                                 const SpotCheckTolerance& tolerance) {
  const double n = c.visits;
  const double off = terminal ? std::abs(c.q - truth) * n  // each visit: truth
                              : std::max(0.0, std::abs(n * c.q - truth) - (n - 1));
  if (off > n * tolerance.value) {
    return Failed(fmt::format(
        "action {}, visited {} times, has Q {:.3f}, out of reach of the network's {:.3f}", c.action,
        c.visits, c.q, truth));
  }
  return util::Ok();
}

// A child visited once: its Q is `truth` within `tolerance.value` (the largest error goes to
// `report`), and it claims a proof only where the game ends there, with that result.
util::Status CheckOnceVisitedChild(const RootChild& c, bool terminal, float truth,
                                   const SpotCheckTolerance& tolerance, SpotCheckReport& report) {
  const double error = std::abs(truth - c.q);
  report.value_error = std::max(report.value_error, error);
  if (error > tolerance.value) {
    return Failed(
        fmt::format("action {}, visited once, has Q {:.3f} where the network says "
                    "{:.3f} (at most {:.3f} apart expected)",
                    c.action, c.q, truth, tolerance.value));
  }
  if (c.proven != 0 && !(terminal && c.proven == static_cast<int>(truth))) {
    return Failed(fmt::format("action {}, visited once, claims a proof it cannot have", c.action));
  }
  return util::Ok();
}

// Checks each visited action's Q (and proof) against the position it leads to. `out`: the
// evaluations of EvaluateRootAndChildren.
util::Status CheckChildren(const rules::Position& pos, const RootSummary& summary,
                           const std::vector<search::EvalOutput>& out,
                           const SpotCheckTolerance& tolerance, SpotCheckReport& report) {
  size_t next_eval = 1;
  for (const RootChild& c : summary.children) {
    rules::Position next = pos;
    next.Apply(c.action);
    const float truth = ChildTruth(pos, next, out, next_eval);
    const util::Status s =
        c.visits > 1 ? CheckRevisitedChild(c, next.IsTerminal(), truth, tolerance)
                     : CheckOnceVisitedChild(c, next.IsTerminal(), truth, tolerance, report);
    if (!s) return s;
  }
  return util::Ok();
}

}  // namespace

RootSummary SummarizeRoot(const search::SearchResult& r) {
  RootSummary s;
  s.chosen = static_cast<uint8_t>(r.action);
  for (const search::ChildInfo& c : r.children) {
    if (c.visits == 0) continue;
    s.children.push_back({static_cast<uint8_t>(c.action), c.visits, c.q, c.proven});
  }
  std::sort(s.children.begin(), s.children.end(),
            [](const RootChild& a, const RootChild& b) { return a.action < b.action; });
  return s;
}

util::Result<SpotCheckReport> SpotCheck(const data::Sample& sample, const RootSummary& summary,
                                        const search::SearchConfig& search,
                                        search::Evaluator& evaluator,
                                        const SpotCheckTolerance& tolerance) {
  const rules::Position& pos = sample.position;
  auto evaluated = EvaluateRootAndChildren(pos, summary, evaluator);
  if (!evaluated) return evaluated.error_value();
  const std::vector<search::EvalOutput>& out = evaluated.value();
  SpotCheckReport report;
  report.evaluations = static_cast<int>(out.size());

  const RootPriors root = PriorsOf(pos, out[0]);
  auto index = IndexChildren(summary, root.actions);
  if (!index) return index.error_value();
  const RootVisits visits = VisitsOf(summary, index.value());
  const float raw = search::SearchValue(out[0].value);
  const std::vector<float> expected = ExpectedPolicy(search, root, raw, visits);
  if (auto s = CheckPolicy(sample, root.actions, expected, tolerance, report); !s) {
    return s.error_value();
  }
  const float mixed = search::MixedValue(root.priors, raw, visits.visited);
  if (auto s = CheckRootValue(sample, summary, mixed); !s) return s.error_value();
  if (auto s = CheckChildren(pos, summary, out, tolerance, report); !s) return s.error_value();
  return report;
}

ResignCheckSettings ResignCheckSettingsOf(const SelfplayConfig& c, double margin) {
  ResignCheckSettings s;
  s.threshold = c.resign_threshold;
  s.simulations = c.full_simulations;
  s.leaves = c.leaves_per_search;
  s.margin = margin;
  return s;
}

util::Result<ResignCheckReport> CheckResignation(const rules::Position& end,
                                                 const search::SearchConfig& search,
                                                 const ResignCheckSettings& settings,
                                                 search::Evaluator& evaluator) {
  using RR = util::Result<ResignCheckReport>;
  if (ResignationOff(settings.threshold)) {
    return RR::Error("spot check: a resignation, but resignation is off in this run");
  }
  if (end.IsTerminal() || end.Pending() != rules::Decision::kChooseShooter) {
    return RR::Error("spot check: a resignation that is not at a play-phase turn start");
  }
  search::SearchConfig config = search;
  config.leaves_per_batch = settings.leaves;
  search::Mcts mcts(config, end.Hash());
  mcts.SetPosition(end);
  const search::SearchResult r = mcts.Run(evaluator, settings.simulations);
  ResignCheckReport report;
  report.value = r.value;
  report.evaluations = r.simulations;
  const double most = settings.threshold + settings.margin;
  if (r.value > most) {
    return RR::Error(fmt::format(
        "spot check: resigned where the learner's search of {} simulations finds {:.3f} for "
        "the resigning player; at most {:.3f} (threshold {:.2f} + margin {:.2f}) expected",
        r.simulations, r.value, most, settings.threshold, settings.margin));
  }
  return report;
}

}  // namespace veletas::selfplay
