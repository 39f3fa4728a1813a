// The four examples of the 2015 rulebook (docs/seeds/003_*.txt), on full 10x10 diagrams
// built to match their text. The rulebook describes the classic rule set; each example is
// also checked under the standard rules where those agree.
#include <gtest/gtest.h>

#include <string>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

using testing::FromDiagram;
using testing::Play;

int S(std::string_view name) { return testing::Sq(10, name); }

std::string Error(const Position& p, std::string_view text) { return testing::TurnError(p, text); }

// "White moves and shoots a stone": a shooter moves orthogonally (c3-c4), then shoots
// diagonally two squares away (e6). The curved path c3 -> c4 -> e6 is not one move.
constexpr const char* kMoveAndShoot = R"(
  . . . . . . . . . .
  . . . . . . . . . .
  . . S . . . . . S .
  . . . . . . . . . .
  . . . . . . . . . .
  . . . . . . . . . .
  . . . . . . . . . .
  . . S . . . . S . .
  . . . . . . . . . .
  . S . . . S . . . S
)";

TEST(Rulebook2015, OrthogonalThenDiagonalPathIsNotOneMove) {
  for (RuleSet rs : {RuleSet::kClassic, RuleSet::kStandard}) {
    const Position p = FromDiagram(rs, kMoveAndShoot, Color::kWhite);
    EXPECT_FALSE(p.Destinations(S("c3")).Test(S("e6")));
    EXPECT_EQ(Error(p, "c3-e6/e8"), "e6 is not reachable from c3 (not on a straight line)");
    Position after = p;
    Play(after, "c3-c4/e6");
    EXPECT_TRUE(after.Stones(Color::kWhite).Test(S("e6")));
    EXPECT_TRUE(after.UnclaimedShooters().Test(S("c4")));
    EXPECT_FALSE(after.UnclaimedShooters().Test(S("c3")));
    EXPECT_EQ(after.ToMove(), Color::kBlack);
  }
}

// "Illegal. Movements and shots from shooters can't jump over other pieces, whether they're
// white stones, black stones or shooters": the move d4-d8 is blocked by the stone on d6;
// after d4-d5 the shot to h5 is blocked by the stone on f5; d4-g7 crosses the shooter on f6.
constexpr const char* kBlocked = R"(
  . . . . . . . . . .
  S . . . . . . . . S
  . . . . . . . . . .
  . . . . . . . . . .
  . . . x . S . . . .
  . . . . . o . . . .
  . . . S . . . . . .
  . . . . . . . . . .
  . S . . . . . . S .
  . . . . . . . . . S
)";

TEST(Rulebook2015, BlockedMovesAndShots) {
  const Position classic = FromDiagram(RuleSet::kClassic, kBlocked, Color::kBlack);
  EXPECT_EQ(Error(classic, "d4-d8/d9"), "d8 is not reachable from d4 (black stone on d6)");
  EXPECT_EQ(Error(classic, "d4-d5/h5"), "h5 is not shootable from d5 (white stone on f5)");
  EXPECT_EQ(Error(classic, "d4-g7/g8"), "g7 is not reachable from d4 (shooter on f6)");
  EXPECT_EQ(Error(classic, "d4-d5/e5"), "");
  // Standard: stones block the same way; the shooter on f6 is jumped.
  const Position standard = FromDiagram(RuleSet::kStandard, kBlocked, Color::kBlack);
  EXPECT_EQ(Error(standard, "d4-d8/d9"), "d8 is not reachable from d4 (black stone on d6)");
  EXPECT_EQ(Error(standard, "d4-d5/h5"), "h5 is not shootable from d5 (white stone on f5)");
  EXPECT_EQ(Error(standard, "d4-g7/g8"), "");
}

// "Black claims the immobilized shooter as he owns the biggest group orthogonally adjacent
// to it. White's group on the left is irrelevant because it's only diagonally adjacent":
// Black's shot on e5 walls in the shooter on f5. Orthogonally next to it Black has f6-g6 and
// f4-g4 (2 each) and White only g5 (1); White's group of six on the left (c5 d4 d5 d6 e4 e6)
// touches f5 only diagonally, at e6 and e4.
constexpr const char* kClaimDiagonalIgnored = R"(
  . . . . . . . . . .
  . S . . . . . . . S
  . . . . . . . . . .
  . . . . . . . . . .
  . . . o o x x . . .
  . . o o . S o . . .
  . . . o o x x . . .
  . . . . . . . . . .
  . S . . . . . . . S
  . . . S . . . . . S
)";

TEST(Rulebook2015, ClaimByLargestOrthogonalGroupDiagonalGroupIgnored) {
  for (RuleSet rs : {RuleSet::kClassic, RuleSet::kStandard}) {
    const Position p = FromDiagram(rs, kClaimDiagonalIgnored, Color::kBlack);
    EXPECT_EQ(p.GroupSize(Color::kWhite, S("e6")), 6);
    EXPECT_EQ(p.GroupSize(Color::kBlack, S("f6")), 2);
    EXPECT_EQ(p.GroupSize(Color::kWhite, S("g5")), 1);
    Position after = p;
    Play(after, "e5");
    EXPECT_EQ(after.GroupSize(Color::kBlack, S("e5")), 1);
    EXPECT_TRUE(after.Claimed(Color::kBlack).Test(S("f5"))) << Diagram(after);
    EXPECT_EQ(after.ClaimCount(Color::kWhite), 0);
  }
}

// "White has ended her turn immobilizing the shooter. The sizes of the biggest black and
// white groups orthogonally adjacent to the immobilized shooter are tied, so the shooter is
// claimed by the opponent (Black in this case)": White shoots e5; next to f5 Black has e6-f6
// and f4-g4, White has g5-g6 and e5-e4, all of size 2.
constexpr const char* kTie = R"(
  . . . . . . . . . .
  . S . . . . . . . S
  . . . . . . . . . .
  . . . . . . . . . .
  . . . . x x o . . .
  . . . . . S o . . .
  . . . . o x x . . .
  . . . . . . . . . .
  . S . . . . . . . S
  . . . S . . . . . S
)";

TEST(Rulebook2015, TieGoesToThePlayerWhoDidNotShoot) {
  for (RuleSet rs : {RuleSet::kClassic, RuleSet::kStandard}) {
    const Position p = FromDiagram(rs, kTie, Color::kWhite);
    Position after = p;
    Play(after, "e5");
    EXPECT_EQ(after.GroupSize(Color::kWhite, S("e5")), 2);
    EXPECT_EQ(after.GroupSize(Color::kWhite, S("g5")), 2);
    EXPECT_EQ(after.GroupSize(Color::kBlack, S("f6")), 2);
    EXPECT_EQ(after.GroupSize(Color::kBlack, S("f4")), 2);
    EXPECT_TRUE(after.Claimed(Color::kBlack).Test(S("f5"))) << Diagram(after);
    EXPECT_EQ(after.ToMove(), Color::kBlack);
  }
}

}  // namespace
}  // namespace veletas::rules
