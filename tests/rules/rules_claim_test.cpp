// Claims and the end of the game (docs/RULES.md), for both rule sets and every board size,
// on diagram fragments padded to the board (see rules_play_test.cpp). In every fragment the
// shot fills the last empty neighbour of a shooter, so it is trapped under both rule sets.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/support/naive_rules.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

class Claims : public ::testing::TestWithParam<std::tuple<RuleSet, int>> {
 protected:
  RuleSet rules() const { return std::get<0>(GetParam()); }
  int size() const { return std::get<1>(GetParam()); }
  Position Make(std::string_view fragment, Color to_move) const {
    return testing::FromDiagram(rules(), testing::PaddedDiagram(size(), fragment), to_move);
  }
  int S(std::string_view name) const { return testing::Sq(size(), name); }
  // Plays `shot` (a stationary shot) and returns who claimed `square`: 'X' Black, 'O'
  // White, 'S' nobody. Also checks the plain oracle agrees on the whole board.
  char ClaimAfter(Position p, std::string_view shot, std::string_view square) const {
    testing::NaiveBoard naive = testing::NaiveBoard::Of(p);
    naive.Play(p.ToMove(), -1, -1, S(shot));
    testing::Play(p, shot);
    EXPECT_EQ(testing::NaiveBoard::Of(p).cells, naive.cells) << Diagram(p);
    if (p.Claimed(Color::kBlack).Test(S(square))) return 'X';
    if (p.Claimed(Color::kWhite).Test(S(square))) return 'O';
    return 'S';
  }
};

std::string VariantName(const ::testing::TestParamInfo<std::tuple<RuleSet, int>>& param) {
  return std::string(RuleSetName(std::get<0>(param.param))) +
         std::to_string(std::get<1>(param.param));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Claims,
                         ::testing::Combine(::testing::Values(RuleSet::kStandard,
                                                              RuleSet::kClassic),
                                            ::testing::Values(7, 9, 10)),
                         VariantName);

// The largest orthogonally adjacent group claims; White's group of five on the left
// touches c3 only diagonally (b4, b2) and is ignored. The 2015 rulebook's third example.
TEST_P(Claims, LargestOrthogonalGroupWinsDiagonalGroupIgnored) {
  const char* fragment = R"(
    . . x . .
    o o x x .
    o . S o .
    o o x x .
    . . . . .
  )";
  const Position black = Make(fragment, Color::kBlack);
  EXPECT_EQ(black.GroupSize(Color::kWhite, S("b4")), 5);
  EXPECT_EQ(black.GroupSize(Color::kBlack, S("c4")), 3);
  EXPECT_EQ(black.GroupSize(Color::kWhite, S("d3")), 1);
  EXPECT_EQ(black.GroupSize(Color::kBlack, S("c2")), 2);
  EXPECT_EQ(black.GroupSize(Color::kBlack, S("b3")), 0);  // empty
  EXPECT_EQ(ClaimAfter(black, "b3", "c3"), 'X');          // 3 beats 1; the 5 is only diagonal
  // The same shot by White joins the group on the left to c3: 6 beats 3.
  EXPECT_EQ(ClaimAfter(Make(fragment, Color::kWhite), "b3", "c3"), 'O');
}

// Largest group, not the sum of the adjacent groups: after Black's shot on b2 Black has
// groups of 3 (b2 b3 c3) and 2 (c1 d1) next to c2, White has 3 (d2 e2 d3) and 1 (b1): a
// tie, so White, who did not shoot, claims (a sum would give Black 5 to 4).
TEST_P(Claims, LargestGroupNotSumTieGoesToTheOpponent) {
  const Position p = Make(R"(
    . x x o .
    . . S o o
    . o x x .
  )",
                          Color::kBlack);
  EXPECT_EQ(ClaimAfter(p, "b2", "c2"), 'O');
}

// The 2015 rulebook's fourth example: White's shot on b2 immobilises the shooter on c2; the
// biggest black (b3 c3, c1 d1) and white (b1 b2, d2 d3) groups next to it are tied at 2, so
// Black claims.
TEST_P(Claims, TieGoesToThePlayerWhoDidNotShoot) {
  const char* fragment = R"(
    . x x o .
    . . S o .
    . o x x .
  )";
  const Position white = Make(fragment, Color::kWhite);
  EXPECT_EQ(ClaimAfter(white, "b2", "c2"), 'X');
  // The same shot by Black joins b3-c3 into a group of 3, which beats White's 2.
  const Position black = Make(fragment, Color::kBlack);
  EXPECT_EQ(ClaimAfter(black, "b2", "c2"), 'X');
}

// No orthogonally adjacent group at all (the orthogonal neighbours are shooters): the
// player who did not shoot claims.
TEST_P(Claims, NoAdjacentGroupGoesToThePlayerWhoDidNotShoot) {
  const char* fragment = R"(
    x . .
    S . .
    S S x
  )";
  EXPECT_EQ(ClaimAfter(Make(fragment, Color::kBlack), "b2", "a1"), 'O');
  EXPECT_EQ(ClaimAfter(Make(fragment, Color::kWhite), "b2", "a1"), 'X');
}

// A stone on a claimed shooter belongs to no group: b1 (claimed by Black) does not join
// c1 to the black stones on a1-a3, so White's groups of two beat Black's single c1.
TEST_P(Claims, StonesOnClaimedShootersBelongToNoGroup) {
  const Position p = Make(R"(
    x . . . . .
    x . o . x .
    x X x S o o
  )",
                          Color::kWhite);
  EXPECT_EQ(p.GroupSize(Color::kBlack, S("c1")), 1);
  EXPECT_EQ(ClaimAfter(p, "d2", "d1"), 'O');
  // Control: with a plain black stone on b1 the black group is five and Black claims.
  const Position control = Make(R"(
    x . . . . .
    x . o . x .
    x x x S o o
  )",
                                Color::kWhite);
  EXPECT_EQ(control.GroupSize(Color::kBlack, S("c1")), 5);
  EXPECT_EQ(ClaimAfter(control, "d2", "d1"), 'X');
}

// One shot traps b1 and c1. Both are decided on the position after the shot: Black's group
// claims b1, White's group claims c1. (Deciding c1 after putting Black's claim stone on b1
// into Black's group would give c1 to Black.)
TEST_P(Claims, SeveralClaimsInOneTurnDecidedOnTheSamePosition) {
  const Position p = Make(R"(
    x . . . .
    x . o o .
    x S S o .
  )",
                          Color::kBlack);
  const int black_before = p.ClaimCount(Color::kBlack);
  const int white_before = p.ClaimCount(Color::kWhite);
  Position after = p;
  testing::Play(after, "b2");
  EXPECT_TRUE(after.Claimed(Color::kBlack).Test(S("b1")));
  EXPECT_TRUE(after.Claimed(Color::kWhite).Test(S("c1")));
  EXPECT_EQ(after.ClaimCount(Color::kBlack), black_before + 1);
  EXPECT_EQ(after.ClaimCount(Color::kWhite), white_before + 1);
  EXPECT_EQ(ClaimAfter(p, "b2", "c1"), 'O');  // and the oracle agrees
}

// Claims come only from trapped shooters, after every shot: a shot that traps nothing
// claims nothing, and a shooter trapped by a shot of either player is claimed at once.
TEST_P(Claims, ClaimsAfterEveryShotOnlyOfTrappedShooters) {
  const char* fragment = R"(
    . . . .
    x x . .
    S . . .
  )";
  for (Color mover : {Color::kBlack, Color::kWhite}) {
    const Position p = Make(fragment, mover);
    Position quiet = p;
    testing::Play(quiet, "c1");
    EXPECT_EQ(quiet.ClaimCount(Color::kBlack) + quiet.ClaimCount(Color::kWhite), 0);
    // Black's group (a2, b2 + the shot) or, for White's shot, Black's 2 against White's 1.
    EXPECT_EQ(ClaimAfter(p, "b1", "a1"), 'X');
  }
}

// The game ends the moment a player holds the majority (table of RULES.md), also when the
// claim comes from the opponent's shot.
TEST_P(Claims, GameEndsAtTheMajority) {
  const int wins = size() == 10 ? 4 : size() == 9 ? 3 : 2;
  EXPECT_EQ(Position::Initial(rules(), size()).ClaimsToWin(), wins);
  auto row_of = [](char c, int k) {
    std::string row;
    for (int i = 0; i < 7; ++i) row += (i % 2 == 0 && i / 2 < k) ? c : '.';
    return row;
  };
  for (int already : {wins - 2, wins - 1}) {
    const Position p = Make(row_of('X', already) + "\n.....\n.....\nxx...\nS....\n", Color::kBlack);
    ASSERT_FALSE(p.IsTerminal());
    Position after = p;
    testing::Play(after, "b1");
    EXPECT_EQ(after.ClaimCount(Color::kBlack), already + 1);
    if (already + 1 < wins) {
      EXPECT_FALSE(after.IsTerminal());
      EXPECT_EQ(after.Pending(), Decision::kChooseShooter);
      EXPECT_EQ(after.ToMove(), Color::kWhite);
      continue;
    }
    EXPECT_TRUE(after.IsTerminal());
    EXPECT_EQ(after.Pending(), Decision::kGameOver);
    EXPECT_EQ(after.Winner(), Color::kBlack);
    EXPECT_EQ(after.LegalActions().Count(), 0);
    EXPECT_EQ(CountTurns(after), 0u);
    EXPECT_TRUE(LegalTurns(after).empty());
    EXPECT_EQ(Perft(after, 1), 0u);
    const util::Result<Turn> more = ParseTurn(after, "e2");
    ASSERT_FALSE(more.ok());
    EXPECT_EQ(more.error(), "the game is over: Black has won");
  }
  // Black's shot ties the groups next to a1 (2 and 2): White claims its majority and wins.
  const Position p = Make(row_of('O', wins - 1) + "\n.....\no....\nox...\nS....\n", Color::kBlack);
  Position after = p;
  testing::Play(after, "b1");
  EXPECT_TRUE(after.IsTerminal());
  EXPECT_EQ(after.Winner(), Color::kWhite);
  EXPECT_EQ(after.ClaimCount(Color::kWhite), wins);
  // A diagram with a majority already claimed is over.
  const Position over = Make(row_of('X', wins) + "\n", Color::kWhite);
  EXPECT_TRUE(over.IsTerminal());
  EXPECT_EQ(over.Winner(), Color::kBlack);
}

}  // namespace
}  // namespace veletas::rules
