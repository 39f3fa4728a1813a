// web::TurnBuilder: the squares a click may choose are exactly those that extend the
// choices so far to a legal full turn (setup shooters in any order), and clicking to the
// end gives legal turns; take-backs and refusals leave a consistent state.
#include "web/turn_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/play/test_util.h"
#include "util/random.h"

namespace veletas::web {
namespace {

using rules::Position;
using rules::RuleSet;

// The setup shooters of a setup turn (its squares before the stone, or all for classic).
std::set<int> ShooterSet(const Position& start, const rules::Turn& t) {
  std::set<int> s;
  Position p = start;
  for (int i = 0; i < t.length; ++i) {
    const bool shooter =
        p.Pending() == rules::Decision::kSetupShooter || p.Pending() == rules::Decision::kPie;
    if (shooter && t[i] != p.PassAction()) s.insert(t[i]);
    p.Apply(t[i]);
  }
  return s;
}

bool IsSetup(const Position& p) {
  return p.Pending() == rules::Decision::kSetupShooter || p.Pending() == rules::Decision::kPie;
}

// Expected targets. Setup shooters: squares x not chosen such that some legal turn's
// shooters include the chosen ones and x. Play: the next actions of the legal turns that
// start with `path`.
std::vector<int> ExpectedSetupTargets(const std::set<std::set<int>>& shooter_sets,
                                      const std::vector<int>& chosen) {
  std::set<int> out;
  for (const std::set<int>& s : shooter_sets) {
    if (!std::all_of(chosen.begin(), chosen.end(), [&](int c) { return s.count(c) > 0; })) {
      continue;
    }
    for (int x : s) {
      if (std::find(chosen.begin(), chosen.end(), x) == chosen.end()) out.insert(x);
    }
  }
  return {out.begin(), out.end()};
}

std::vector<int> ExpectedPlayTargets(const Position& start, const std::vector<rules::Turn>& legal,
                                     const std::vector<rules::Action>& path) {
  std::set<int> out;
  for (const rules::Turn& t : legal) {
    if (t.length <= static_cast<int>(path.size())) continue;
    bool prefix = true;
    for (size_t i = 0; i < path.size(); ++i) prefix = prefix && t[i] == path[i];
    if (prefix && t[path.size()] != start.PassAction()) out.insert(t[path.size()]);
  }
  return {out.begin(), out.end()};
}

TEST(TurnBuilder, TargetsAreExactlyTheLegalExtensionsAndClicksGiveLegalTurns) {
  int setup_turns = 0, play_turns = 0, swaps = 0;
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      const auto g = play::testing::PlayRandomGame(rs, size, 40 + size);
      util::Rng rng(7 * size + static_cast<int>(rs));
      for (size_t k = 0; k < g.before.size(); k += (k < 4 ? 1 : 5)) {
        const Position& start = g.before[k];
        // Exact targets are checked on 7x7 and 9x9 (10x10 setups have millions of turns).
        const bool exact = size < 10 || !IsSetup(start);
        const auto legal = exact ? rules::LegalTurns(start) : std::vector<rules::Turn>();
        std::set<std::set<int>> shooter_sets;
        if (IsSetup(start)) {
          for (const rules::Turn& t : legal) shooter_sets.insert(ShooterSet(start, t));
        }
        TurnBuilder b(start);
        std::vector<int> chosen;  // setup shooters in click order
        std::vector<rules::Action> path;
        // The start position's sub-decisions before the setup stone.
        const bool setup = IsSetup(start);
        while (!b.Complete()) {
          const TurnChoices c = b.Choices();
          const bool shooters = setup && c.decision != rules::Decision::kSetupStone;
          std::vector<int> targets = c.targets;
          std::sort(targets.begin(), targets.end());
          if (shooters && exact) {
            EXPECT_EQ(targets, ExpectedSetupTargets(shooter_sets, chosen)) << rules::Diagram(start);
          } else if (!setup) {
            EXPECT_EQ(targets, ExpectedPlayTargets(start, legal, path)) << rules::Diagram(start);
          }
          ASSERT_FALSE(targets.empty() && !c.pass);
          // Choose a random target (or the pass-like action now and then).
          const bool pass = c.pass && (targets.empty() || rng.Below(4) == 0);
          const rules::Action a = pass ? start.PassAction() : targets[rng.Below(targets.size())];
          const auto complete = b.Choose(a);
          ASSERT_TRUE(complete.ok());
          EXPECT_EQ(complete.value(), b.Complete());
          if (shooters && !pass) chosen.push_back(a);
          if (!setup) path.push_back(a);
          if (pass && setup) ++swaps;
        }
        EXPECT_EQ(rules::ParseTurn(start, rules::TurnToString(start, b.Turn())).ok(), true)
            << rules::Diagram(start);
        if (exact) {
          EXPECT_NE(std::find(legal.begin(), legal.end(), b.Turn()), legal.end())
              << rules::Diagram(start) << rules::TurnToString(start, b.Turn());
        }
        (setup ? setup_turns : play_turns)++;
      }
    }
  }
  EXPECT_EQ(setup_turns, 12);  // both setup turns of each game
  EXPECT_GT(play_turns, 30);
}

TEST(TurnBuilder, SetupShootersClickedInAnyOrderAndTakenBack) {
  // 10x10 standard: Black places three shooters, then the stone.
  const Position start = Position::Initial(RuleSet::kStandard, 10);
  TurnBuilder b(start);
  const int n = 10;
  auto sq = [&](const char* name) { return *rules::ParseSquare(n, name); };
  ASSERT_TRUE(b.Choose(sq("g6")).ok());
  ASSERT_TRUE(b.Choose(sq("c3")).ok());
  EXPECT_EQ(b.Choices().decision, rules::Decision::kSetupShooter);
  // Taken back, then placed again elsewhere.
  ASSERT_TRUE(b.Choose(sq("g6")).ok());
  EXPECT_EQ(b.Choices().chosen, std::vector<int>{sq("c3")});
  ASSERT_TRUE(b.Choose(sq("e5")).ok());
  ASSERT_TRUE(b.Choose(sq("b7")).ok());
  EXPECT_EQ(b.Choices().decision, rules::Decision::kSetupStone);
  // A shooter can still be taken back while the stone is due.
  ASSERT_TRUE(b.Choose(sq("b7")).ok());
  EXPECT_EQ(b.Choices().decision, rules::Decision::kSetupShooter);
  ASSERT_TRUE(b.Choose(sq("h8")).ok());
  // A perimeter square takes no shooter, but the stone.
  EXPECT_FALSE(b.Complete());
  ASSERT_TRUE(b.Choose(sq("a1")).ok());
  ASSERT_TRUE(b.Complete());
  EXPECT_EQ(rules::TurnToString(start, b.Turn()), "c3,e5,h8/a1");
}

TEST(TurnBuilder, RefusesWhatTheRulesRefuseAndChangesNothing) {
  const Position start = Position::Initial(RuleSet::kStandard, 7);
  TurnBuilder b(start);
  const auto refused = b.Choose(*rules::ParseSquare(7, "a1"));  // perimeter
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), "a1 cannot take a setup shooter");
  EXPECT_TRUE(b.Choices().chosen.empty());
  EXPECT_EQ(b.Choose(49).error(), "swap is not possible now");
  EXPECT_EQ(b.Choose(50).error(), "no such square");
  EXPECT_EQ(b.Choose(-1).error(), "no such square");
  // Play phase: choosing a shooter, then clicking it again takes it back.
  const auto g = play::testing::PlayRandomGame(RuleSet::kStandard, 7, 5);
  const Position& play = g.before[4];
  ASSERT_EQ(play.Pending(), rules::Decision::kChooseShooter);
  TurnBuilder p(play);
  const int shooter = *play.LegalActions().squares.begin();
  ASSERT_TRUE(p.Choose(shooter).ok());
  EXPECT_EQ(p.Choices().decision, rules::Decision::kDestination);
  EXPECT_EQ(p.Choices().chosen, std::vector<int>{shooter});
  ASSERT_TRUE(p.Choose(shooter).ok());
  EXPECT_EQ(p.Choices().decision, rules::Decision::kChooseShooter);
  EXPECT_TRUE(p.Choices().chosen.empty());
}

}  // namespace
}  // namespace veletas::web
