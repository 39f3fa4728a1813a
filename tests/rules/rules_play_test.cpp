// The play phase of docs/RULES.md on positions written as diagrams: turn structure,
// blocking, the shot onto the square a shooter left, trapped shooters, claimed shooters.
// Each rule runs for both rule sets and every board size: the diagram is a fragment on the
// lower-left corner (a1 bottom-left), padded with the board's remaining shooters on the top
// rows (tests/support/rules_helpers.h). Exact square sets come from the plain oracle in
// tests/support/naive_rules.h; the squares that make each rule visible are named here.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/support/naive_rules.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

using testing::NaiveBoard;

class PlayRules : public ::testing::TestWithParam<std::tuple<RuleSet, int>> {
 protected:
  RuleSet rules() const { return std::get<0>(GetParam()); }
  int size() const { return std::get<1>(GetParam()); }
  bool classic() const { return rules() == RuleSet::kClassic; }
  Position Make(std::string_view fragment, Color to_move = Color::kBlack) const {
    return testing::FromDiagram(rules(), testing::PaddedDiagram(size(), fragment), to_move);
  }
  int S(std::string_view name) const { return testing::Sq(size(), name); }
  Bitboard Naive(const Position& p, std::string_view from) const {
    Bitboard b;
    for (int sq : NaiveBoard::Of(p).Reach(S(from))) b.Set(sq);
    return b;
  }
  std::string Names(Bitboard b) const { return testing::Names(size(), b); }
  // The error of an illegal turn (empty if the turn is legal).
  std::string Error(const Position& p, std::string_view text) const {
    return testing::TurnError(p, text);
  }
};

std::string VariantName(const ::testing::TestParamInfo<std::tuple<RuleSet, int>>& param) {
  return std::string(RuleSetName(std::get<0>(param.param))) +
         std::to_string(std::get<1>(param.param));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, PlayRules,
                         ::testing::Combine(::testing::Values(RuleSet::kStandard,
                                                              RuleSet::kClassic),
                                            ::testing::Values(7, 9, 10)),
                         VariantName);

// A turn: optionally move one unclaimed shooter, then shoot, from the moved shooter if one
// moved, else from any unclaimed shooter.
TEST_P(PlayRules, MoveIsOptionalThenShotFromTheMovedShooter) {
  const Position p = Make(R"(
    . . . . .
    . . . . .
    . . . . S
    . . . . .
    S . . . .
  )");
  ASSERT_EQ(p.Pending(), Decision::kChooseShooter);
  const ActionSet choose = p.LegalActions();
  EXPECT_TRUE(choose.pass);  // moving is optional
  EXPECT_EQ(choose.squares, p.UnclaimedShooters());

  Position no_move = p;
  no_move.Apply(p.PassAction());
  EXPECT_EQ(no_move.Pending(), Decision::kShot);
  const Bitboard stationary = no_move.LegalActions().squares;
  EXPECT_TRUE(stationary.Test(S("a2")));  // from a1
  EXPECT_TRUE(stationary.Test(S("e5")));  // from e3
  EXPECT_TRUE(stationary.Test(S("b3")));  // from e3, along row 3
  Bitboard union_of_shooters;
  for (int s : p.UnclaimedShooters()) {
    for (int sq : NaiveBoard::Of(p).Reach(s)) union_of_shooters.Set(sq);
  }
  EXPECT_EQ(Names(stationary), Names(union_of_shooters));

  Position moved = p;
  moved.Apply(S("a1"));
  EXPECT_EQ(moved.Pending(), Decision::kDestination);
  EXPECT_EQ(Names(moved.LegalActions().squares), Names(Naive(p, "a1")));
  moved.Apply(S("b1"));
  EXPECT_EQ(moved.Pending(), Decision::kShot);  // the shot is mandatory: still Black's turn
  EXPECT_EQ(moved.ToMove(), Color::kBlack);
  EXPECT_EQ(moved.TurnsPlayed(), p.TurnsPlayed());
  const Bitboard shots = moved.LegalActions().squares;
  EXPECT_EQ(Names(shots), Names(Naive(moved, "b1")));
  EXPECT_FALSE(shots.Test(S("e5")));  // e3 could shoot there, but e3 did not move
  EXPECT_TRUE(shots.Test(S("e4")));   // on b1's diagonal
  moved.Apply(S("e4"));
  EXPECT_EQ(moved.Pending(), Decision::kChooseShooter);
  EXPECT_EQ(moved.ToMove(), Color::kWhite);
  EXPECT_EQ(moved.TurnsPlayed(), p.TurnsPlayed() + 1);
  EXPECT_TRUE(moved.Stones(Color::kBlack).Test(S("e4")));
  EXPECT_TRUE(moved.UnclaimedShooters().Test(S("b1")));
  EXPECT_FALSE(moved.UnclaimedShooters().Test(S("a1")));

  EXPECT_EQ(Error(p, "a1-b1/e5"), "e5 is not shootable from b1 (not on a straight line)");
  EXPECT_EQ(Error(p, "e5"), "");
  EXPECT_EQ(Error(p, "a1-b1/e4"), "");
}

// Standard: only stones block; shooters, claimed or not, are jumped over by moves and shots.
// Classic: every piece blocks.
TEST_P(PlayRules, Blocking) {
  const Position p = Make(R"(
    . . . . . .
    . . . . . .
    X . . . . .
    . o . . . .
    S . S . x .
  )");
  const Bitboard dest = p.Destinations(S("a1"));
  EXPECT_EQ(Names(dest), Names(Naive(p, "a1")));
  EXPECT_EQ(Names(p.ShotsFrom(S("a1"))), Names(dest));  // moves and shots walk alike
  EXPECT_TRUE(dest.Test(S("b1")));
  EXPECT_TRUE(dest.Test(S("a2")));
  EXPECT_FALSE(dest.Test(S("b2")));           // a white stone
  EXPECT_FALSE(dest.Test(S("c3")));           // behind it
  EXPECT_FALSE(dest.Test(S("e1")));           // a black stone
  EXPECT_FALSE(dest.Test(S("f1")));           // behind it
  EXPECT_EQ(dest.Test(S("d1")), !classic());  // past the shooter on c1
  EXPECT_EQ(dest.Test(S("a4")), !classic());  // past the claimed shooter on a3
  if (classic()) {
    EXPECT_EQ(Names(dest), testing::Sorted(size(), "a2 b1"));
    EXPECT_EQ(Error(p, "a1-d1/d2"), "d1 is not reachable from a1 (shooter on c1)");
    EXPECT_EQ(Error(p, "a1-a4/a5"), "a4 is not reachable from a1 (claimed shooter on a3)");
    EXPECT_EQ(Error(p, "a1-f1/f2"), "f1 is not reachable from a1 (shooter on c1)");
    EXPECT_EQ(Error(p, "a1-a2/a4"), "a4 is not shootable from a2 (claimed shooter on a3)");
    EXPECT_EQ(Error(p, "a4"), "no unclaimed shooter can shoot to a4");
  } else {
    EXPECT_EQ(Error(p, "a1-d1/d2"), "");
    EXPECT_EQ(Error(p, "a1-a4/a5"), "");
    EXPECT_EQ(Error(p, "a1-f1/f2"), "f1 is not reachable from a1 (black stone on e1)");
    EXPECT_EQ(Error(p, "a1-a2/a4"), "");  // the shot jumps the claimed shooter
    EXPECT_EQ(Error(p, "a4"), "");
  }
  EXPECT_EQ(Error(p, "a1-c3/c4"), "c3 is not reachable from a1 (white stone on b2)");
  EXPECT_EQ(Error(p, "a1-e1/e2"), "e1 is not reachable from a1 (e1 holds a black stone)");
  EXPECT_EQ(Error(p, "a1-b1/b2"), "b2 is not shootable from b1 (b2 holds a white stone)");
}

// A shooter that moved may shoot onto the square it just left (both rule sets), and in
// classic rules the line through that square extends beyond it.
TEST_P(PlayRules, MovedShooterMayShootOntoTheSquareItLeft) {
  const Position cornered = Make(R"(
    . . .
    x x x
    S . x
  )");
  EXPECT_EQ(Names(cornered.Destinations(S("a1"))), testing::Sorted(size(), "b1"));
  std::vector<std::string> from_a1;
  for (const std::string& t : testing::TurnStrings(cornered)) {
    if (t.rfind("a1-", 0) == 0) from_a1.push_back(t);
  }
  EXPECT_EQ(from_a1, std::vector<std::string>{"a1-b1/a1"});  // the vacated square only
  Position after = cornered;
  testing::Play(after, "a1-b1/a1");
  // The shooter on b1 is now walled in by one black group of five: Black claims it.
  EXPECT_TRUE(after.Claimed(Color::kBlack).Test(S("b1")));
  EXPECT_EQ(after.GroupSize(Color::kBlack, S("a1")), 5);

  const Position row = Make(R"(
    . . . . .
    x . S . .
  )");
  EXPECT_EQ(Error(row, "c1-e1/c1"), "");  // the square it left
  EXPECT_EQ(Error(row, "c1-e1/b1"), "");  // and beyond it, up to the stone
  EXPECT_EQ(Error(row, "c1-e1/a1"), "a1 is not shootable from e1 (a1 holds a black stone)");
  EXPECT_EQ(Error(row, "c1-d2/c1"), "");
  EXPECT_EQ(Error(row, "c1-c3/c1"), "");
}

// Trapped: standard = no legal move, walking past shooters (the shooter on a2 is jumped,
// a3 beyond it is empty); classic = no empty neighbour.
TEST_P(PlayRules, TrappedDefinitions) {
  const Position p = Make(R"(
    . . .
    S x .
    S . x
  )");
  ASSERT_FALSE(p.IsTrapped(S("a1")));  // b1 is empty
  Position after = p;
  testing::Play(after, "b1");
  EXPECT_EQ(after.IsTerminal(), false);
  EXPECT_EQ(after.Claimed(Color::kBlack).Test(S("a1")), classic());
  EXPECT_EQ(after.UnclaimedShooters().Test(S("a1")), !classic());
  EXPECT_FALSE(after.UnclaimedShooters().Test(S("a1")) && after.IsTrapped(S("a1")));
  EXPECT_TRUE(after.UnclaimedShooters().Test(S("a2")));  // a3 and b3 are free
  if (!classic()) {
    EXPECT_EQ(Names(after.Destinations(S("a1"))), Names(Naive(after, "a1")));
    EXPECT_TRUE(after.Destinations(S("a1")).Test(S("a3")));
  }

  // With a stone behind the shooter on a2, the shooter on a1 is trapped in both rule sets.
  const Position walled = Make(R"(
    x . .
    S x .
    S . x
  )");
  Position after_walled = walled;
  testing::Play(after_walled, "b1");
  EXPECT_TRUE(after_walled.Claimed(Color::kBlack).Test(S("a1")));
  EXPECT_TRUE(after_walled.UnclaimedShooters().Test(S("a2")));
}

// The definition itself, on a position no game reaches (an unclaimed trapped shooter):
// such a shooter cannot be chosen to move.
TEST_P(PlayRules, TrappedShooterCannotBeChosen) {
  const Position p = Make(R"(
    . . .
    S x .
    S o .
  )");
  EXPECT_EQ(p.IsTrapped(S("a1")), classic());
  EXPECT_EQ(NaiveBoard::Of(p).Trapped(S("a1")), classic());
  EXPECT_EQ(p.LegalActions().squares.Test(S("a1")), !classic());
  EXPECT_TRUE(p.LegalActions().squares.Test(S("a2")));
}

// Claimed shooters cannot move or shoot.
TEST_P(PlayRules, ClaimedShootersCannotMoveOrShoot) {
  const Position p = Make(R"(
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    S . . . O
  )");
  EXPECT_FALSE(p.LegalActions().squares.Test(S("c3")));
  EXPECT_FALSE(p.LegalActions().squares.Test(S("e1")));
  EXPECT_EQ(Error(p, "c3-c4/c5"), "the shooter on c3 is claimed and cannot move");
  EXPECT_EQ(Error(p, "e1-e2/e3"), "the shooter on e1 is claimed and cannot move");
  EXPECT_EQ(Error(p, "d3-d4/d5"), "d3 holds no shooter (nothing)");
  Bitboard unclaimed_reach, claimed_reach;
  const NaiveBoard board = NaiveBoard::Of(p);
  for (int s : p.UnclaimedShooters()) {
    for (int sq : board.Reach(s)) unclaimed_reach.Set(sq);
  }
  for (int sq : board.Reach(S("c3"))) claimed_reach.Set(sq);
  EXPECT_EQ(Names(p.ShotsWithoutMove()), Names(unclaimed_reach));
  EXPECT_TRUE((claimed_reach & ~unclaimed_reach).Any());  // the claimed one would add squares
  EXPECT_EQ(p.ClaimCount(Color::kBlack), 1);
  EXPECT_EQ(p.ClaimCount(Color::kWhite), 1);
}

}  // namespace
}  // namespace veletas::rules
