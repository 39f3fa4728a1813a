// Setup and pie rule of docs/RULES.md, for both rule sets and every board size. Expected
// counts and sets are derived here from the rules by plain combinatorics or brute force,
// never taken from the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "rules/notation.h"
#include "rules/symmetry.h"
#include "rules/turns.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

using testing::AfterRecord;
using testing::Names;
using testing::Play;
using testing::Sq;
using testing::TurnStrings;

uint64_t Choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  uint64_t r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

// Plain geometry, written independently of rules/geometry.h.
bool OnPerimeter(int n, int sq) {
  const int row = sq / n, col = sq % n;
  return row == 0 || col == 0 || row == n - 1 || col == n - 1;
}
bool Touch(int n, int a, int b) {
  return std::abs(a / n - b / n) <= 1 && std::abs(a % n - b % n) <= 1;
}
// Notation order of setup shooters: column, then row.
bool NotationLess(int n, int a, int b) { return a % n != b % n ? a % n < b % n : a / n < b / n; }

// Calls f(set) for every k-subset of `candidates` (in notation order) whose squares are
// pairwise accepted by `ok`.
void ForEachSubset(int n, std::vector<int> candidates, int k,
                   const std::function<bool(int, int)>& ok,
                   const std::function<void(const std::vector<int>&)>& f) {
  std::sort(candidates.begin(), candidates.end(),
            [n](int a, int b) { return NotationLess(n, a, b); });
  std::vector<int> chosen;
  std::function<void(size_t)> rec = [&](size_t start) {
    if (static_cast<int>(chosen.size()) == k) {
      f(chosen);
      return;
    }
    for (size_t i = start; i < candidates.size(); ++i) {
      bool fits = true;
      for (int c : chosen) fits = fits && ok(c, candidates[i]);
      if (!fits) continue;
      chosen.push_back(candidates[i]);
      rec(i + 1);
      chosen.pop_back();
    }
  };
  rec(0);
}

std::string Join(int n, const std::vector<int>& squares) {
  std::string s;
  for (int sq : squares) s += (s.empty() ? "" : ",") + SquareName(n, sq);
  return s;
}

// Every legal setup turn of `pos` (at the start of a setup turn) by brute force: their
// number, and the sorted list in notation when `list` is given.
uint64_t BruteForceSetups(const Position& pos, int quota, std::vector<std::string>* list) {
  const int n = pos.Size();
  const bool standard = pos.Rules() == RuleSet::kStandard;
  std::vector<int> candidates;
  std::vector<int> existing;
  for (int sq = 0; sq < n * n; ++sq) {
    if (pos.AllShooters().Test(sq)) existing.push_back(sq);
  }
  for (int sq = 0; sq < n * n; ++sq) {
    if (pos.Occupied().Test(sq)) continue;
    if (standard && OnPerimeter(n, sq)) continue;
    if (!standard &&
        std::any_of(existing.begin(), existing.end(), [&](int e) { return Touch(n, e, sq); })) {
      continue;
    }
    candidates.push_back(sq);
  }
  uint64_t count = 0;
  auto add = [&](const std::string& text) {
    ++count;
    if (list) list->push_back(text);
  };
  ForEachSubset(
      n, candidates, quota, [&](int a, int b) { return standard || !Touch(n, a, b); },
      [&](const std::vector<int>& set) {
        if (!standard) {
          add(list ? Join(n, set) : "");
          return;
        }
        for (int stone = 0; stone < n * n; ++stone) {
          if (pos.Occupied().Test(stone) || std::count(set.begin(), set.end(), stone)) continue;
          add(list ? Join(n, set) + "/" + SquareName(n, stone) : "");
        }
      });
  if (pos.Pending() == Decision::kPie) add("swap");
  if (list) std::sort(list->begin(), list->end());
  return count;
}

std::vector<std::string> BruteForceList(const Position& pos, int quota) {
  std::vector<std::string> list;
  BruteForceSetups(pos, quota, &list);
  return list;
}

struct Quota {
  int size, shooters, black, white, wins;
};
// The table of RULES.md.
constexpr Quota kTable[] = {{7, 3, 1, 2, 2}, {9, 5, 2, 3, 3}, {10, 7, 3, 4, 4}};
void PrintTo(const Quota& q, std::ostream* os) { *os << q.size << "x" << q.size; }

class SetupBySize : public ::testing::TestWithParam<Quota> {};

std::string QuotaName(const ::testing::TestParamInfo<Quota>& param) {
  return "size" + std::to_string(param.param.size);
}
INSTANTIATE_TEST_SUITE_P(Sizes, SetupBySize, ::testing::ValuesIn(kTable), QuotaName);

TEST_P(SetupBySize, SizeTableMatchesRulesMd) {
  const Quota q = GetParam();
  const SizeRules r = RulesForSize(q.size);
  EXPECT_EQ(r.shooters, q.shooters);
  EXPECT_EQ(r.black_setup, q.black);
  EXPECT_EQ(r.shooters - r.black_setup, q.white);
  EXPECT_EQ(r.claims_to_win, q.wins);
  EXPECT_EQ(Position::Initial(RuleSet::kClassic, q.size).ClaimsToWin(), q.wins);
}

// Standard: Black places its shooters off the perimeter and one stone anywhere.
TEST_P(SetupBySize, StandardBlackSetupCount) {
  const Quota q = GetParam();
  const int n = q.size;
  const Position start = Position::Initial(RuleSet::kStandard, n);
  EXPECT_EQ(start.Pending(), Decision::kSetupShooter);
  EXPECT_EQ(start.ToMove(), Color::kBlack);
  EXPECT_EQ(start.ToMovePlayer(), 0);
  // C(interior, quota) shooter sets, times the stone on any of the remaining squares.
  EXPECT_EQ(CountTurns(start), Choose((n - 2) * (n - 2), q.black) * (n * n - q.black));
}

TEST_P(SetupBySize, StandardSetupShootersNeverOnPerimeterStoneAnywhere) {
  const Quota q = GetParam();
  const int n = q.size;
  Position p = Position::Initial(RuleSet::kStandard, n);
  // Sub-decisions: every legal shooter square is interior; the stone may go anywhere.
  for (int placed = 0; placed < q.black; ++placed) {
    const ActionSet set = p.LegalActions();
    EXPECT_FALSE(set.pass);
    for (int sq : set.squares) EXPECT_FALSE(OnPerimeter(n, sq)) << SquareName(n, sq);
    p.Apply(set.squares.Lsb());
  }
  ASSERT_EQ(p.Pending(), Decision::kSetupStone);
  EXPECT_EQ(p.LegalActions().squares, p.EmptySquares());
  EXPECT_TRUE(p.IsLegal(Sq(n, "a1")));
  EXPECT_TRUE(p.IsLegal(Sq(n, SquareName(n, n * n - 1))));  // the far corner
  // In notation: a perimeter shooter is refused, a perimeter stone accepted.
  const Position start = Position::Initial(RuleSet::kStandard, n);
  std::string interior;  // c3, c4, ... : the quota less one
  for (int i = 1; i < q.black; ++i) interior += "c" + std::to_string(2 + i) + ",";
  EXPECT_TRUE(testing::IsLegalTurn(start, interior + "e5/a1"));
  EXPECT_TRUE(testing::IsLegalTurn(start, interior + "e5/" + SquareName(n, n * n - 1)));
  const std::string corner = SquareName(n, n - 1);  // the lower-right corner
  const util::Result<Turn> on_edge = ParseTurn(start, interior + corner + "/a1");
  ASSERT_FALSE(on_edge.ok());
  EXPECT_EQ(on_edge.error(), corner + " is on the perimeter, where no setup shooter may go");
}

// Standard shooters may be placed next to each other (only classic forbids it).
TEST(StandardSetup, AdjacentShootersAllowed) {
  const Position start = Position::Initial(RuleSet::kStandard, 10);
  EXPECT_TRUE(testing::IsLegalTurn(start, "c3,c4,d4/d5"));
  Position p = AfterRecord(RuleSet::kStandard, 10, "c3,c4,d4/d5");
  EXPECT_TRUE(testing::IsLegalTurn(p, "c5,d3,e3,e4/a1"));
}

TEST_P(SetupBySize, StandardQuotasPerSize) {
  const Quota q = GetParam();
  const int n = q.size;
  // Interior squares: c2, d4, e6 for Black; b2, d2, f2, h2 for White (as many as needed).
  std::string black, white;
  for (int i = 0; i < q.black; ++i) {
    black += (i ? "," : "") + SquareName(n, (1 + 2 * i) * n + 2 + i);
  }
  for (int i = 0; i < q.white; ++i) white += (i ? "," : "") + SquareName(n, n + 1 + 2 * i);
  const std::string record = black + "/a1 " + white + "/a2";
  Position p = AfterRecord(RuleSet::kStandard, n, record);
  EXPECT_EQ(p.Pending(), Decision::kChooseShooter);
  EXPECT_EQ(p.AllShooters().Count(), q.shooters);
  EXPECT_EQ(p.Stones(Color::kBlack), testing::Squares(n, "a1"));
  EXPECT_EQ(p.Stones(Color::kWhite), testing::Squares(n, "a2"));

  // One shooter too few or too many is an error naming the quota.
  const Position start = Position::Initial(RuleSet::kStandard, n);
  const std::string plural = q.black > 1 ? "s" : "";
  const util::Result<Turn> more = ParseTurn(start, black + ",f2/a1");
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.error(), "Black places " + std::to_string(q.black) + " shooter" + plural +
                              " in the setup, got " + std::to_string(q.black + 1));
  const Position after_black = AfterRecord(RuleSet::kStandard, n, black + "/a1");
  const util::Result<Turn> fewer =
      ParseTurn(after_black, white.substr(0, white.rfind(',')) + "/a2");
  ASSERT_FALSE(fewer.ok());
  EXPECT_EQ(fewer.error(), "White places " + std::to_string(q.white) +
                               " shooters in the setup, got " + std::to_string(q.white - 1));
}

// The pie rule: the second player may swap; the board is unchanged and only who holds
// Black changes. Declining is White's setup itself.
TEST_P(SetupBySize, PieRuleSwapKeepsBoardAndChangesWhoHoldsBlack) {
  const Quota q = GetParam();
  const int n = q.size;
  std::string black;
  for (int i = 0; i < q.black; ++i)
    black += (i ? "," : "") + SquareName(n, (1 + 2 * i) * n + 2 + i);
  const Position pie = AfterRecord(RuleSet::kStandard, n, black + "/a1");
  EXPECT_EQ(pie.Pending(), Decision::kPie);
  EXPECT_EQ(pie.ToMove(), Color::kWhite);
  EXPECT_EQ(pie.ToMovePlayer(), 1);  // the second player decides
  EXPECT_EQ(pie.BlackPlayer(), 0);
  EXPECT_TRUE(pie.LegalActions().pass);
  // Swap or any of White's setups: C(interior empties, quota) * stones, plus one swap.
  const int interior_free = (n - 2) * (n - 2) - q.black;
  const uint64_t white_setups = Choose(interior_free, q.white) * (n * n - q.black - 1 - q.white);
  EXPECT_EQ(CountTurns(pie), white_setups + 1);

  Position swapped = pie;
  Play(swapped, "swap");
  EXPECT_EQ(BoardRows(swapped), BoardRows(pie));
  EXPECT_EQ(swapped.BlackPlayer(), 1);
  EXPECT_EQ(swapped.ToMove(), Color::kWhite);  // still White's setup...
  EXPECT_EQ(swapped.ToMovePlayer(), 0);        // ...now played by the first player
  EXPECT_EQ(swapped.PlayerOf(Color::kBlack), 1);
  EXPECT_EQ(swapped.PlayerOf(Color::kWhite), 0);
  EXPECT_EQ(swapped.ColorOf(0), Color::kWhite);
  EXPECT_EQ(swapped.ColorOf(1), Color::kBlack);
  EXPECT_EQ(pie.PlayerOf(Color::kBlack), 0);
  EXPECT_EQ(pie.ColorOf(1), Color::kWhite);
  EXPECT_EQ(swapped.Pending(), Decision::kSetupShooter);
  EXPECT_EQ(swapped.TurnsPlayed(), pie.TurnsPlayed() + 1);
  EXPECT_EQ(CountTurns(swapped), white_setups);  // no second swap
  const util::Result<Turn> again = ParseTurn(swapped, "swap");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error(), "swap is only allowed right after Black's setup, under standard rules");

  std::string white;
  for (int i = 0; i < q.white; ++i) white += (i ? "," : "") + SquareName(n, n + 1 + 2 * i);
  Position after_swap = swapped;
  Play(after_swap, white + "/a2");
  Position declined = pie;
  Play(declined, white + "/a2");
  EXPECT_EQ(BoardRows(after_swap), BoardRows(declined));
  // Black moves first either way; after the swap Black is the second player.
  for (const Position* p : {&after_swap, &declined}) {
    EXPECT_EQ(p->Pending(), Decision::kChooseShooter);
    EXPECT_EQ(p->ToMove(), Color::kBlack);
  }
  EXPECT_EQ(after_swap.ToMovePlayer(), 1);
  EXPECT_EQ(declined.ToMovePlayer(), 0);
  // Turn by turn the players alternate: after Black's first turn, White = player 0.
  Position next = after_swap;
  ApplyTurn(next, LegalTurns(next).front());
  EXPECT_EQ(next.ToMove(), Color::kWhite);
  EXPECT_EQ(next.ToMovePlayer(), 0);
  // In a record, swap is written and declining writes nothing.
  const Position from_record =
      AfterRecord(RuleSet::kStandard, n, black + "/a1 swap " + white + "/a2");
  EXPECT_EQ(from_record, after_swap);
}

// Standard: the legal setups at 7x7 are exactly the brute-force ones (the pie position
// includes "swap").
TEST(StandardSetup, SetupTurnsEqualBruteForceOn7x7) {
  const Position start = Position::Initial(RuleSet::kStandard, 7);
  EXPECT_EQ(TurnStrings(start), BruteForceList(start, 1));
  for (const char* black : {"d4/e4", "b2/a1", "f6/g7"}) {
    const Position pie = AfterRecord(RuleSet::kStandard, 7, black);
    EXPECT_EQ(TurnStrings(pie), BruteForceList(pie, 2)) << black;
    Position swapped = pie;
    Play(swapped, "swap");
    EXPECT_EQ(TurnStrings(swapped), BruteForceList(swapped, 2)) << black;
  }
}

// Classic: no shooter touches another (orthogonally or diagonally), the perimeter is
// allowed, no stone, no pie rule.
TEST_P(SetupBySize, ClassicSetupTurnsEqualBruteForce) {
  const Quota q = GetParam();
  const int n = q.size;
  const Position start = Position::Initial(RuleSet::kClassic, n);
  EXPECT_EQ(start.Pending(), Decision::kSetupShooter);
  EXPECT_EQ(CountTurns(start), BruteForceSetups(start, q.black, nullptr));
  if (n < 10) {
    EXPECT_EQ(TurnStrings(start), BruteForceList(start, q.black));
  }
  // Corners are allowed; the opponent's shooters count for adjacency too.
  const std::string corner = SquareName(n, 0);
  std::string setup = corner;
  for (int i = 1; i < q.black; ++i) setup += "," + SquareName(n, n * (2 * i) + 2 * i);
  Position p = AfterRecord(RuleSet::kClassic, n, setup);
  EXPECT_EQ(p.Pending(), Decision::kSetupShooter);  // no pie rule: White places at once
  EXPECT_EQ(p.ToMove(), Color::kWhite);
  EXPECT_EQ(p.ToMovePlayer(), 1);
  EXPECT_EQ(p.Stones().Count(), 0);  // no setup stone
  EXPECT_EQ(CountTurns(p), BruteForceSetups(p, q.white, nullptr));
  if (n == 7) {
    EXPECT_EQ(TurnStrings(p), BruteForceList(p, q.white));
  }
}

TEST(ClassicSetup, AdjacencyStoneAndSwapErrors) {
  const Position start = Position::Initial(RuleSet::kClassic, 9);
  const util::Result<Turn> touching = ParseTurn(start, "c3,d4");
  ASSERT_FALSE(touching.ok());
  EXPECT_EQ(touching.error(), "c3 touches the shooter on d4: setup shooters may not be adjacent");
  const util::Result<Turn> orthogonal = ParseTurn(start, "e5,e6");
  ASSERT_FALSE(orthogonal.ok());
  EXPECT_EQ(orthogonal.error(), "e5 touches the shooter on e6: setup shooters may not be adjacent");
  EXPECT_TRUE(testing::IsLegalTurn(start, "c3,e4"));  // a knight's move apart is fine
  EXPECT_TRUE(testing::IsLegalTurn(start, "a1,i9"));  // perimeter allowed
  const util::Result<Turn> stone = ParseTurn(start, "a1,i9/e5");
  ASSERT_FALSE(stone.ok());
  EXPECT_EQ(stone.error(), "classic rules have no setup stone: expected only shooters");
  const Position white = AfterRecord(RuleSet::kClassic, 9, "a1,i9");
  const util::Result<Turn> near_black = ParseTurn(white, "b2,e5,g5");
  ASSERT_FALSE(near_black.ok());
  EXPECT_EQ(near_black.error(), "b2 touches the shooter on a1: setup shooters may not be adjacent");
  const util::Result<Turn> swap = ParseTurn(white, "swap");
  ASSERT_FALSE(swap.ok());
  EXPECT_EQ(swap.error(), "swap is only allowed right after Black's setup, under standard rules");
  EXPECT_FALSE(white.LegalActions().pass);
}

// Black moves first after the setup, in both rule sets.
TEST_P(SetupBySize, BlackMovesFirstAfterSetup) {
  const Quota q = GetParam();
  const int n = q.size;
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    Position p = Position::Initial(rs, n);
    util::Rng rng(n * 31 + static_cast<int>(rs));
    int setup_turns = 0;
    while (p.Pending() != Decision::kChooseShooter) {
      EXPECT_EQ(p.ClaimCount(Color::kBlack) + p.ClaimCount(Color::kWhite), 0);
      ApplyTurn(p, RandomTurn(p, rng));
      ++setup_turns;
    }
    EXPECT_EQ(setup_turns, 2);  // RandomTurn at the pie swaps only rarely
    EXPECT_EQ(p.ToMove(), Color::kBlack);
    EXPECT_EQ(p.ToMovePlayer(), 0);
    EXPECT_EQ(p.AllShooters().Count(), q.shooters);
    EXPECT_EQ(p.Stones().Count(), rs == RuleSet::kStandard ? 2 : 0);
    // Setup placements never claim: no unclaimed shooter is trapped after a setup either.
    for (int s : p.UnclaimedShooters()) EXPECT_FALSE(p.IsTrapped(s));
  }
}

// Mid-setup, every legal square leaves room for the rest of the placement in notation
// order: the first Black shooter can be any interior square but the last quota-1 ones.
TEST_P(SetupBySize, SubDecisionSquaresLeaveRoomForTheRest) {
  const Quota q = GetParam();
  const int n = q.size;
  const Position start = Position::Initial(RuleSet::kStandard, n);
  std::vector<int> interior;
  for (int sq = 0; sq < n * n; ++sq) {
    if (!OnPerimeter(n, sq)) interior.push_back(sq);
  }
  std::sort(interior.begin(), interior.end(), [n](int a, int b) { return NotationLess(n, a, b); });
  Bitboard expected;
  for (size_t i = 0; i + (q.black - 1) < interior.size(); ++i) expected.Set(interior[i]);
  EXPECT_EQ(Names(n, start.LegalActions().squares), Names(n, expected));
}

// Setup shooter decisions are not symmetric, not even at the first placement of a turn: the
// empty 10x10 board is its own mirror image, but Black's first shooter may be b8 and not
// i8 (no two interior squares follow i8 in notation order). IsSymmetricDecision() says so;
// full turns stay symmetric through TransformTurn.
TEST(SetupSymmetry, SetupShooterDecisionsAreNotSymmetric) {
  const Position start = Position::Initial(RuleSet::kStandard, 10);
  EXPECT_FALSE(start.IsSymmetricDecision());
  const Bitboard legal = start.LegalActions().squares;
  EXPECT_TRUE(legal.Test(Sq(10, "b8")));
  EXPECT_FALSE(legal.Test(Sq(10, "i8")));
  EXPECT_TRUE(start.Transformed(1) == start);  // flip_cols maps b8 to i8
  EXPECT_EQ(TransformSquare(10, 1, Sq(10, "b8")), Sq(10, "i8"));
  EXPECT_NE(TransformBitboard(10, 1, legal), start.Transformed(1).LegalActions().squares);

  const Position pie = AfterRecord(RuleSet::kStandard, 10, "c3,e5,g7/a1");
  EXPECT_FALSE(pie.IsSymmetricDecision());
  Position stone = AfterRecord(RuleSet::kStandard, 10, "");
  for (int i = 0; i < 3; ++i) stone.Apply(stone.LegalActions().squares.Lsb());
  ASSERT_EQ(stone.Pending(), Decision::kSetupStone);
  EXPECT_TRUE(stone.IsSymmetricDecision());
  for (int sym = 0; sym < kNumSymmetries; ++sym) {
    EXPECT_EQ(stone.Transformed(sym).LegalActions().squares,
              TransformBitboard(10, sym, stone.LegalActions().squares));
  }
  EXPECT_TRUE(
      AfterRecord(RuleSet::kStandard, 10, "c3,e5,g7/a1 d4,f6,h8,c7/b2").IsSymmetricDecision());
  EXPECT_FALSE(Position::Initial(RuleSet::kClassic, 9).IsSymmetricDecision());
}

}  // namespace
}  // namespace veletas::rules
