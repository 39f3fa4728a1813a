// The spot check of a worker's targets (selfplay/spot_check.h) on real self-play games with a
// deterministic fake network: every honest sample passes with no difference at all, and each
// kind of forged target is caught with its reason.
#include "selfplay/spot_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "search/batching_evaluator.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "tests/selfplay/selfplay_test_util.h"

namespace veletas::selfplay {
namespace {

search::SearchConfig Search(search::Algorithm algorithm) {
  search::SearchConfig s;
  s.algorithm = algorithm;
  s.simulations = 16;
  return s;
}

// `count` self-play games on 7x7, in the order of their indices.
std::vector<FinishedGame> Games(const search::SearchConfig& search, search::Evaluator& net,
                                const SelfplayConfig& config = testing::SmallConfig(),
                                int count = 3) {
  SelfplayJob job;
  job.size = 7;
  job.games = count;
  job.generation = 5;
  search::BatchingConfig batching;
  batching.max_batch = 16;
  batching.max_wait_us = 0;
  auto games = PlayGamesInMemory(config, search, batching, net, job);
  EXPECT_TRUE(games.ok()) << (games.ok() ? "" : games.error());
  if (!games.ok()) return {};
  std::vector<FinishedGame> out = std::move(games.value());
  std::sort(out.begin(), out.end(),
            [](const FinishedGame& a, const FinishedGame& b) { return a.index < b.index; });
  return out;
}

// The first sample of `g` with an action visited once (and its index there), or -1.
int WithSingleVisit(const FinishedGame& g, size_t& child) {
  for (size_t i = 0; i < g.summaries.size(); ++i) {
    const auto& c = g.summaries[i].children;
    for (size_t k = 0; k < c.size(); ++k) {
      rules::Position next = g.samples[i].position;
      next.Apply(c[k].action);
      if (c[k].visits == 1 && !next.IsTerminal()) {
        child = k;
        return static_cast<int>(i);
      }
    }
  }
  return -1;
}

// Three self-play games searched with the parameter's root policy and a deterministic fake
// network, and that network for the checks.
class SpotCheckTest : public ::testing::TestWithParam<search::Algorithm> {
 protected:
  void SetUp() override { games = Games(search, net); }
  search::HashEvaluator net{3};
  const search::SearchConfig search = Search(GetParam());
  std::vector<FinishedGame> games;
};

TEST_P(SpotCheckTest, EveryHonestSamplePassesExactly) {
  int checked = 0;
  for (const FinishedGame& g : games) {
    ASSERT_EQ(g.summaries.size(), g.samples.size());
    for (size_t i = 0; i < g.samples.size(); ++i) {
      auto r = SpotCheck(g.samples[i], g.summaries[i], search, net, SpotCheckTolerance{});
      ASSERT_TRUE(r.ok()) << r.error() << " (sample " << i << ")";
      EXPECT_LT(r.value().policy_tv, 1e-4);
      EXPECT_LT(r.value().value_error, 1e-6);
      EXPECT_GE(r.value().evaluations, 1);
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
}

TEST_P(SpotCheckTest, AForgedPolicyOrRootValueIsCaught) {
  ASSERT_FALSE(games.empty());
  const FinishedGame& g = games.front();
  ASSERT_FALSE(g.samples.empty());
  // All weight on the least likely action of the target.
  data::Sample forged = g.samples[0];
  const auto least = std::min_element(
      forged.policy.begin(), forged.policy.end(),
      [](const data::PolicyEntry& a, const data::PolicyEntry& b) { return a.prob < b.prob; });
  const uint8_t action = least->action;
  forged.policy = {{action, 1.0f}};
  auto r = SpotCheck(forged, g.summaries[0], search, net, SpotCheckTolerance{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("the policy target is"), std::string::npos) << r.error();
  // A root value that claims more than the search found.
  forged = g.samples[0];
  forged.root_value = forged.root_value > 0 ? forged.root_value - 0.5f : forged.root_value + 0.5f;
  r = SpotCheck(forged, g.summaries[0], search, net, SpotCheckTolerance{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("the root value"), std::string::npos) << r.error();
}

TEST_P(SpotCheckTest, AForgedQOfAnActionVisitedOnceIsCaught) {
  size_t child = 0;
  const int i = games.empty() ? -1 : WithSingleVisit(games.front(), child);
  ASSERT_GE(i, 0);
  RootSummary summary = games.front().summaries[i];
  float& q = summary.children[child].q;
  q = q > 0 ? q - 0.1f : q + 0.1f;
  // A forger that also made the target and root value fit its summary: only the Q is wrong.
  SpotCheckTolerance any_target;
  any_target.policy_tv = 1.0;
  data::Sample sample = games.front().samples[i];
  if (summary.chosen == summary.children[child].action) sample.root_value = q;
  auto r = SpotCheck(sample, summary, search, net, any_target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("visited once, has Q"), std::string::npos) << r.error();
  // Within the tolerance it passes (what two machines' arithmetic may differ by).
  any_target.value = 0.11;
  EXPECT_TRUE(SpotCheck(sample, summary, search, net, any_target).ok());
}

TEST_P(SpotCheckTest, AQOfAnActionVisitedMoreThanOnceOutOfTheNetworksReachIsCaught) {
  int forged = 0;
  for (const FinishedGame& g : games) {
    for (size_t i = 0; i < g.samples.size() && forged < 5; ++i) {
      for (size_t k = 0; k < g.summaries[i].children.size(); ++k) {
        const RootChild& c = g.summaries[i].children[k];
        if (c.visits < 2 || c.visits > 40) continue;
        // The far end from where the search found it (at n <= 40 out of reach of any
        // network value for the first visit).
        RootSummary summary = g.summaries[i];
        summary.children[k].q = c.q > 0 ? -1.0f : 1.0f;
        data::Sample sample = g.samples[i];
        if (summary.chosen == c.action) sample.root_value = summary.children[k].q;
        SpotCheckTolerance any_target;
        any_target.policy_tv = 1.0;
        auto r = SpotCheck(sample, summary, search, net, any_target);
        ASSERT_FALSE(r.ok()) << "sample " << i;
        EXPECT_NE(r.error().find("out of reach"), std::string::npos) << r.error();
        ++forged;
        break;
      }
    }
  }
  EXPECT_EQ(forged, 5);
}

TEST_P(SpotCheckTest, SummariesThatCannotBeTheSearchsAreRefused) {
  ASSERT_FALSE(games.empty());
  const FinishedGame& g = games.front();
  RootSummary s = g.summaries[0];
  s.children.push_back(s.children.front());  // an action twice
  EXPECT_FALSE(SpotCheck(g.samples[0], s, search, net, SpotCheckTolerance{}).ok());
  s = g.summaries[0];
  s.children.front().action = 200;  // not an action of the position
  auto r = SpotCheck(g.samples[0], s, search, net, SpotCheckTolerance{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("illegal"), std::string::npos) << r.error();
  s = g.summaries[0];
  s.children.front().q = 3.0f;  // outside [-1, 1]
  EXPECT_FALSE(SpotCheck(g.samples[0], s, search, net, SpotCheckTolerance{}).ok());
  s = g.summaries[0];
  s.chosen = 200;
  EXPECT_FALSE(SpotCheck(g.samples[0], s, search, net, SpotCheckTolerance{}).ok());
}

INSTANTIATE_TEST_SUITE_P(BothRootPolicies, SpotCheckTest,
                         ::testing::Values(search::Algorithm::kGumbel, search::Algorithm::kPuct),
                         [](const auto& param_info) {
                           return std::string(
                               param_info.param == search::Algorithm::kGumbel ? "Gumbel" : "Puct");
                         });

// With setup_value_target: played, a setup sample's root value is the value of the action the
// game played there (drawn at setup_temperature, often not the search's choice), and its
// summary names that action, so the spot check, which recomputes that value from the
// network, passes. Play-phase samples and the games themselves are unchanged.
TEST(SetupValueTarget, ASetupSampleTakesThePlayedActionsValueAndPassesTheSpotCheck) {
  search::HashEvaluator net{3};
  const search::SearchConfig search = Search(search::Algorithm::kGumbel);
  SelfplayConfig chosen = testing::SmallConfig();
  chosen.setup_record_probability = 1.0f;
  SelfplayConfig played = chosen;
  played.setup_value_of_played = true;
  const std::vector<FinishedGame> a = Games(search, net, chosen, 6);
  const std::vector<FinishedGame> b = Games(search, net, played, 6);
  ASSERT_EQ(a.size(), 6u);
  ASSERT_EQ(b.size(), 6u);
  int setup = 0, not_the_choice = 0, value_changed = 0;
  for (size_t g = 0; g < b.size(); ++g) {
    ASSERT_EQ(a[g].record.record, b[g].record.record);
    ASSERT_EQ(a[g].samples.size(), b[g].samples.size());
    const testing::Replay r =
        testing::ReplayRecord(rules::RuleSet::kStandard, 7, b[g].record.record);
    size_t at = 0;
    for (size_t i = 0; i < b[g].samples.size(); ++i) {
      const data::Sample& sa = a[g].samples[i];
      const data::Sample& sb = b[g].samples[i];
      ASSERT_TRUE(sa.position == sb.position);
      while (at < r.positions.size() && !(r.positions[at] == sb.position)) ++at;
      ASSERT_LT(at, r.positions.size()) << "sample " << i << " not in " << b[g].record.record;
      auto check = SpotCheck(sb, b[g].summaries[i], search, net, SpotCheckTolerance{});
      ASSERT_TRUE(check.ok()) << check.error() << " (game " << g << ", sample " << i << ")";
      if (IsSetupDecision(sb.position.Pending())) {
        ++setup;
        EXPECT_EQ(b[g].summaries[i].chosen, r.actions[at]);
        if (a[g].summaries[i].chosen != r.actions[at]) ++not_the_choice;
        if (sa.root_value != sb.root_value) ++value_changed;
      } else {
        EXPECT_EQ(sa.root_value, sb.root_value);
        EXPECT_EQ(a[g].summaries[i].chosen, b[g].summaries[i].chosen);
      }
    }
  }
  EXPECT_GT(setup, 20);
  EXPECT_GT(not_the_choice, 0);
  EXPECT_GT(value_changed, 0);
}

}  // namespace
}  // namespace veletas::selfplay

namespace veletas::selfplay {
namespace {

// A network that says person `losing` loses (value -0.95 for them, +0.95 for the other),
// with uniform priors.
search::FunctionEvaluator Losing(int losing) {
  return search::FunctionEvaluator([losing](const rules::Position& pos, search::EvalOutput& out) {
    search::FillUniformPolicy(pos, out);
    out.value = pos.ToMovePlayer() == losing ? -0.95f : 0.95f;
  });
}

// The play-phase turn starts of the first half of real self-play games (far from their end:
// no search of a few simulations reaches a won position from them), with a shooter to move.
std::vector<rules::Position> TurnStarts(search::Algorithm algorithm) {
  search::HashEvaluator net(3);
  std::vector<rules::Position> out;
  for (const FinishedGame& g : Games(Search(algorithm), net)) {
    for (size_t i = 0; i < g.samples.size() / 2; ++i) {
      const rules::Position& pos = g.samples[i].position;
      if (pos.Pending() == rules::Decision::kChooseShooter && pos.LegalActions().squares.Any())
        out.push_back(pos);
    }
  }
  return out;
}

class ResignationCheckTest : public ::testing::TestWithParam<search::Algorithm> {};

// A resignation stands where the learner's search finds the resigning player losing, and is
// refused, with the value found, where it finds them winning.
TEST_P(ResignationCheckTest, StandsOnlyWhereTheSearchFindsTheResignerLosing) {
  const search::SearchConfig search = Search(GetParam());
  ResignCheckSettings settings;
  settings.threshold = -0.9f;
  settings.simulations = 16;
  settings.leaves = 4;
  settings.margin = 0.5;
  const std::vector<rules::Position> starts = TurnStarts(GetParam());
  ASSERT_GE(starts.size(), 10u);
  for (const rules::Position& end : starts) {
    search::FunctionEvaluator losing = Losing(end.ToMovePlayer());
    auto stands = CheckResignation(end, search, settings, losing);
    ASSERT_TRUE(stands.ok()) << stands.error();
    EXPECT_LE(stands.value().value, -0.9f);
    EXPECT_EQ(stands.value().evaluations, 16);
    search::FunctionEvaluator winning = Losing(1 - end.ToMovePlayer());
    auto refused = CheckResignation(end, search, settings, winning);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("resigned where the learner's search of 16 simulations finds"),
              std::string::npos)
        << refused.error();
    EXPECT_LE(refused.error().size(), 220u);
  }
}

// The margin decides: a value between the threshold and threshold + margin stands, one above
// it does not.
TEST_P(ResignationCheckTest, TheMarginIsWhatSeparatesThem) {
  const search::SearchConfig search = Search(GetParam());
  const rules::Position end = TurnStarts(GetParam()).front();
  search::FunctionEvaluator unsure([&end](const rules::Position& pos, search::EvalOutput& out) {
    search::FillUniformPolicy(pos, out);
    out.value = pos.ToMovePlayer() == end.ToMovePlayer() ? -0.6f : 0.6f;
  });
  ResignCheckSettings settings;
  settings.threshold = -0.9f;
  settings.simulations = 8;
  settings.margin = 0.5;
  EXPECT_TRUE(CheckResignation(end, search, settings, unsure).ok());
  settings.margin = 0.2;
  EXPECT_FALSE(CheckResignation(end, search, settings, unsure).ok());
}

// No resignation stands in a run whose resignation is off, nor one away from a play-phase
// turn start.
TEST_P(ResignationCheckTest, AResignationTheRulesOfTheRunDoNotAllowIsRefused) {
  const search::SearchConfig search = Search(GetParam());
  const rules::Position end = TurnStarts(GetParam()).front();
  search::FunctionEvaluator losing = Losing(end.ToMovePlayer());
  ResignCheckSettings off;
  off.threshold = -1.0f;
  off.simulations = 8;
  auto r = CheckResignation(end, search, off, losing);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("resignation is off"), std::string::npos) << r.error();
  ResignCheckSettings on = off;
  on.threshold = -0.9f;
  rules::Position mid = end;
  mid.Apply(mid.LegalActions().squares.Lsb());  // now within the turn
  auto inside = CheckResignation(mid, search, on, losing);
  ASSERT_FALSE(inside.ok());
  EXPECT_NE(inside.error().find("not at a play-phase turn start"), std::string::npos)
      << inside.error();
}

INSTANTIATE_TEST_SUITE_P(BothRootPolicies, ResignationCheckTest,
                         ::testing::Values(search::Algorithm::kPuct, search::Algorithm::kGumbel));

}  // namespace
}  // namespace veletas::selfplay
