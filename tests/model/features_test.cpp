// Feature encoding: known positions plane by plane (expected squares read off the diagrams by
// hand), symmetry commutation and padding.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "model/base/features.h"
#include "rules/notation.h"
#include "rules/symmetry.h"
#include "tests/model/test_util.h"

namespace veletas::model {
namespace {

using rules::Color;
using rules::Position;
using rules::RuleSet;
using testing::Sq;

std::vector<float> Encode(const Position& p, int canvas = 0) {
  if (canvas == 0) canvas = p.Size();
  std::vector<float> planes(PlanesSize(canvas));
  EncodePosition(p, canvas, planes.data());
  return planes;
}

// Names of the squares where `plane` is non-zero; checks every non-zero value is 1.
std::set<std::string> SquaresOf(const std::vector<float>& planes, int size, int plane) {
  std::set<std::string> names;
  for (int sq = 0; sq < size * size; ++sq) {
    const float v = planes[plane * size * size + sq];
    if (v != 0.0f) {
      EXPECT_EQ(v, 1.0f) << PlaneName(plane);
      names.insert(rules::SquareName(size, sq));
    }
  }
  return names;
}

// True when `plane` holds `value` on every square.
bool Constant(const std::vector<float>& planes, int size, int plane, float value) {
  const int area = size * size;
  return std::all_of(planes.begin() + plane * area, planes.begin() + (plane + 1) * area,
                     [&](float v) { return v == value; });
}

using Names = std::set<std::string>;

// 7x7, standard rules, White to move. Read from the diagram: black stones b6 c2; white
// stones e5 d3 a1; unclaimed shooters c5 f3; b3 claimed by Black.
constexpr const char* kDiagram =
    ".......\n"
    ".x.....\n"
    "..S.o..\n"
    ".......\n"
    ".X.o.S.\n"
    "..x....\n"
    "o......\n";

Position DiagramPosition() {
  auto p = rules::PositionFromDiagram(RuleSet::kStandard, kDiagram, Color::kWhite);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error());
  return p.value();
}

TEST(Features, PlaneNamesAreUnique) {
  std::set<std::string> names;
  for (int p = 0; p < kNumPlanes; ++p) names.insert(PlaneName(p));
  EXPECT_EQ(static_cast<int>(names.size()), kNumPlanes);
}

TEST(Features, ChooseShooterPositionFromDiagram) {
  const Position p = DiagramPosition();
  ASSERT_EQ(p.Pending(), rules::Decision::kChooseShooter);
  const auto f = Encode(p);
  // Own = White, the colour to move.
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOwnStones), (Names{"e5", "d3", "a1"}));
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOppStones), (Names{"b6", "c2"}));
  EXPECT_EQ(SquaresOf(f, 7, kPlaneUnclaimed), (Names{"c5", "f3"}));
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOwnClaimed), Names{});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOppClaimed), Names{"b3"});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneActiveShooter), Names{});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneMovedFrom), Names{});
  // Both unclaimed shooters have an empty neighbour, so both may be chosen.
  EXPECT_EQ(SquaresOf(f, 7, kPlaneLegal), (Names{"c5", "f3"}));
  for (int d = kPlaneDecisionSetupShooter; d <= kPlaneDecisionShot; ++d) {
    EXPECT_TRUE(Constant(f, 7, d, d == kPlaneDecisionChooseShooter ? 1.0f : 0.0f)) << d;
  }
  // 2 claims win on 7x7: White has none (2/2 needed), Black has one (1/2 needed).
  EXPECT_TRUE(Constant(f, 7, kPlaneOwnClaimsNeeded, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneOppClaimsNeeded, 0.5f));
  EXPECT_TRUE(Constant(f, 7, kPlaneClassic, 0.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneWhiteToMove, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneSetupLeft, 0.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneMask, 1.0f));
}

TEST(Features, DestinationAndShotAfterAMove) {
  Position p = DiagramPosition();
  p.Apply(Sq(7, "c5"));
  ASSERT_EQ(p.Pending(), rules::Decision::kDestination);
  auto f = Encode(p);
  EXPECT_EQ(SquaresOf(f, 7, kPlaneActiveShooter), Names{"c5"});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneMovedFrom), Names{});
  EXPECT_TRUE(Constant(f, 7, kPlaneDecisionDestination, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneDecisionChooseShooter, 0.0f));
  // Queen moves from c5 to empty squares; only stones block (b6, c2, e5), shooters are
  // jumped (none on these lines). N c6 c7; S c4 c3; E d5; W b5 a5; NE d6 e7; NW none;
  // SE d4 e3 f2 g1; SW b4 a3.
  EXPECT_EQ(SquaresOf(f, 7, kPlaneLegal), (Names{"c6", "c7", "c4", "c3", "d5", "b5", "a5", "d6",
                                                 "e7", "d4", "e3", "f2", "g1", "b4", "a3"}));

  p.Apply(Sq(7, "e3"));
  ASSERT_EQ(p.Pending(), rules::Decision::kShot);
  f = Encode(p);
  EXPECT_EQ(SquaresOf(f, 7, kPlaneActiveShooter), Names{"e3"});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneMovedFrom), Names{"c5"});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneUnclaimed), (Names{"e3", "f3"}));
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOwnStones), (Names{"e5", "d3", "a1"}));
  EXPECT_TRUE(Constant(f, 7, kPlaneDecisionShot, 1.0f));
  // Shots from e3: N e4 (e5 blocks); S e2 e1; E g3 (jumping the shooter on f3); W none (d3);
  // NE f4 g5; NW d4 c5 (vacated) then b6 blocks; SE f2 g1; SW d2 c1.
  EXPECT_EQ(SquaresOf(f, 7, kPlaneLegal),
            (Names{"e4", "e2", "e1", "g3", "f4", "g5", "d4", "c5", "f2", "g1", "d2", "c1"}));
}

TEST(Features, StandardSetupAndPie) {
  Position p = Position::Initial(RuleSet::kStandard, 7);
  auto f = Encode(p);
  // Black places 1 shooter, not on the perimeter: the 25 squares b2..f6.
  Names interior;
  for (char c = 'b'; c <= 'f'; ++c) {
    for (char r = '2'; r <= '6'; ++r) interior.insert(std::string{c, r});
  }
  EXPECT_EQ(SquaresOf(f, 7, kPlaneLegal), interior);
  EXPECT_TRUE(Constant(f, 7, kPlaneDecisionSetupShooter, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneSetupLeft, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneOwnClaimsNeeded, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneOppClaimsNeeded, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneWhiteToMove, 0.0f));
  EXPECT_EQ(SquaresOf(f, 7, kPlaneUnclaimed), Names{});

  p.Apply(Sq(7, "c3"));
  ASSERT_EQ(p.Pending(), rules::Decision::kSetupStone);
  f = Encode(p);
  EXPECT_EQ(SquaresOf(f, 7, kPlaneUnclaimed), Names{"c3"});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneLegal).size(), 48u);  // any empty square
  EXPECT_TRUE(Constant(f, 7, kPlaneDecisionSetupStone, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneSetupLeft, 2.0f / 3.0f));

  p.Apply(Sq(7, "a1"));
  ASSERT_EQ(p.Pending(), rules::Decision::kPie);
  f = Encode(p);
  // White decides; Black's stone is the opponent's.
  EXPECT_TRUE(Constant(f, 7, kPlaneWhiteToMove, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneDecisionPie, 1.0f));
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOwnStones), Names{});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOppStones), Names{"a1"});
  // White's first of two shooters: an empty interior square with a later interior square
  // still free in notation order, so neither c3 (taken) nor f6 (the last interior square).
  Names pie = interior;
  pie.erase("c3");
  pie.erase("f6");
  EXPECT_EQ(SquaresOf(f, 7, kPlaneLegal), pie);
}

TEST(Features, ClassicRulesPlane) {
  auto p = rules::PositionFromDiagram(RuleSet::kClassic, kDiagram, Color::kBlack);
  ASSERT_TRUE(p.ok());
  const auto f = Encode(p.value());
  EXPECT_TRUE(Constant(f, 7, kPlaneClassic, 1.0f));
  EXPECT_TRUE(Constant(f, 7, kPlaneWhiteToMove, 0.0f));
  // Black to move: Black's claim on b3 is now its own.
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOwnClaimed), Names{"b3"});
  EXPECT_EQ(SquaresOf(f, 7, kPlaneOwnStones), (Names{"b6", "c2"}));
  EXPECT_TRUE(Constant(f, 7, kPlaneOwnClaimsNeeded, 0.5f));
  EXPECT_TRUE(Constant(f, 7, kPlaneOppClaimsNeeded, 1.0f));
}

TEST(Features, PaddedCanvasHoldsTheNativePlanesAndZeros) {
  for (const Position& p : SamplePositions(RuleSet::kStandard, 7, 60, 5)) {
    const auto native = Encode(p, 7);
    const auto padded = Encode(p, 10);
    for (int plane = 0; plane < kNumPlanes; ++plane) {
      for (int r = 0; r < 10; ++r) {
        for (int c = 0; c < 10; ++c) {
          const float v = padded[plane * 100 + r * 10 + c];
          const float want = (r < 7 && c < 7) ? native[plane * 49 + r * 7 + c] : 0.0f;
          ASSERT_EQ(v, want) << PlaneName(plane) << " " << r << "," << c;
        }
      }
    }
  }
}

TEST(Features, EncodeBatchLegalMaskMatchesLegalActions) {
  std::vector<Position> positions = SamplePositions(RuleSet::kStandard, 7, 20, 9);
  const auto more = SamplePositions(RuleSet::kClassic, 10, 20, 9);
  positions.insert(positions.end(), more.begin(), more.end());
  EncodedBatch b;
  EncodeBatch(positions, 0, b);
  ASSERT_EQ(b.canvas, 10);
  ASSERT_EQ(b.batch, 40);
  for (int i = 0; i < b.batch; ++i) {
    const Position& p = positions[i];
    const int n = p.Size();
    int count = 0;
    for (int c = 0; c < CanvasActions(10); ++c) count += b.legal[i * CanvasActions(10) + c];
    EXPECT_EQ(count, p.LegalActions().Count());
    for (int a = 0; a <= n * n; ++a) {
      EXPECT_EQ(b.legal[i * CanvasActions(10) + CanvasAction(n, 10, a)] != 0, p.IsLegal(a));
    }
  }
}

// encode(transform(p)) == transform(encode(p)) for every symmetry, for every position
// except the setup-shooter decisions (excluded by design: Position::IsSymmetricDecision).
TEST(Features, EncodingCommutesWithSymmetries) {
  int checked = 0, setup = 0;
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      for (const Position& p : SamplePositions(rs, size, 150, 77 + size)) {
        if (!p.IsSymmetricDecision()) continue;
        const auto planes = Encode(p);
        for (int sym = 0; sym < rules::kNumSymmetries; ++sym) {
          const auto direct = Encode(p.Transformed(sym));
          ASSERT_EQ(direct, TransformPlanes(planes, size, sym))
              << rules::RuleSetName(rs) << " " << size << " sym " << sym << " "
              << rules::DecisionName(p.Pending()) << "\n"
              << rules::Diagram(p);
        }
        ++checked;
        setup += p.Pending() == rules::Decision::kSetupStone;
      }
    }
  }
  EXPECT_GT(checked, 600);
  EXPECT_GE(setup, 6);  // both setup stones of each standard game are included
}

// The exclusion is needed: setup-shooter decisions whose encoding does not commute.
TEST(Features, OrderConstrainedSetupIsNotSymmetric) {
  auto differs = [](const Position& p) {
    EXPECT_FALSE(p.IsSymmetricDecision()) << rules::DecisionName(p.Pending());
    bool any = false;
    for (int sym = 1; sym < rules::kNumSymmetries; ++sym) {
      any |= Encode(p.Transformed(sym)) != TransformPlanes(Encode(p), p.Size(), sym);
    }
    return any;
  };
  Position p = Position::Initial(RuleSet::kStandard, 10);
  EXPECT_TRUE(differs(p));  // Black's first of three shooters
  p.Apply(Sq(10, "c3"));
  EXPECT_TRUE(differs(p));  // Black's second
  Position q = Position::Initial(RuleSet::kStandard, 7);
  q.Apply(Sq(7, "c3"));
  q.Apply(Sq(7, "a1"));
  ASSERT_EQ(q.Pending(), rules::Decision::kPie);
  EXPECT_TRUE(differs(q));  // White's first of two shooters (f6 is excluded, a2 is not)
}

}  // namespace
}  // namespace veletas::model
