// Properties of the rules core over seeded random games (both rule sets, every size, a few
// hundred games): incremental hash, invariants, symmetry, notation round trips, sub-decision
// paths against the fast generators, and a plain oracle for moves and claims.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/symmetry.h"
#include "rules/turns.h"
#include "tests/support/naive_rules.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

// A turn as one sortable number: its actions, 8 bits each, and its length.
uint64_t Key(const Turn& t) {
  uint64_t k = t.length;
  for (int i = 0; i < t.length; ++i) k |= static_cast<uint64_t>(t[i]) << (8 + 8 * i);
  return k;
}

std::vector<uint64_t> SortedKeys(const std::vector<Turn>& turns) {
  std::vector<uint64_t> keys;
  for (const Turn& t : turns) keys.push_back(Key(t));
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool HasDuplicates(const std::vector<uint64_t>& sorted) {
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

// Checks made at every sub-decision point.
void CheckSubDecision(const Position& p) {
  ASSERT_TRUE(p.CheckInvariants()) << Diagram(p);
  ASSERT_EQ(p.Hash(), p.ComputeHash());
  const std::optional<Position> from_state = Position::FromState(p.State());
  ASSERT_TRUE(from_state.has_value());
  EXPECT_EQ(*from_state, p);
  if (p.IsTerminal()) return;
  const ActionSet legal = p.LegalActions();
  ASSERT_GT(legal.Count(), 0) << DecisionName(p.Pending()) << "\n" << Diagram(p);
  if (p.Pending() == Decision::kChooseShooter) {
    // A player to move always has a legal shot, and every claim has been settled.
    EXPECT_TRUE(p.ShotsWithoutMove().Any());
    for (int s : p.UnclaimedShooters()) EXPECT_FALSE(p.IsTrapped(s)) << SquareName(p.Size(), s);
  }
  for (int sym = 0; sym < kNumSymmetries; ++sym) {
    const Position t = p.Transformed(sym);
    ASSERT_TRUE(t.CheckInvariants());
    EXPECT_EQ(t.Transformed(InverseSymmetry(sym)), p);
    // Setup shooter decisions are not symmetric by design (Position::IsSymmetricDecision, rules/position.h).
    if (!p.IsSymmetricDecision()) continue;
    const ActionSet image = t.LegalActions();
    EXPECT_EQ(image.squares, TransformBitboard(p.Size(), sym, legal.squares))
        << "symmetry " << sym << " at " << DecisionName(p.Pending()) << "\n"
        << Diagram(p);
    EXPECT_EQ(image.pass, legal.pass);
  }
}

// The expensive checks, made at some turn starts: sub-decision paths, counts, notation,
// symmetric turn lists and the plain oracle's turn list.
void CheckTurnList(const Position& p) {
  const std::vector<Turn> legal = LegalTurns(p);
  const std::vector<uint64_t> keys = SortedKeys(legal);
  EXPECT_FALSE(HasDuplicates(keys));
  EXPECT_EQ(CountTurns(p), legal.size());
  const std::vector<uint64_t> by_paths = SortedKeys(TurnsBySubDecisions(p));
  EXPECT_FALSE(HasDuplicates(by_paths));
  EXPECT_EQ(by_paths, keys) << Diagram(p);
  std::vector<std::string> names;
  for (const Turn& t : legal) {
    const std::string text = TurnToString(p, t);
    const util::Result<Turn> parsed = ParseTurn(p, text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error();
    EXPECT_EQ(parsed.value(), t) << text;
    names.push_back(text);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());  // distinct texts
  if (p.Pending() == Decision::kChooseShooter) {
    EXPECT_EQ(testing::NaiveBoard::Of(p).Turns(), names) << Diagram(p);
  }
  for (int sym = 1; sym < kNumSymmetries; ++sym) {
    std::vector<Turn> mapped;
    for (const Turn& t : legal) mapped.push_back(TransformTurn(p, sym, t));
    EXPECT_EQ(SortedKeys(mapped), SortedKeys(LegalTurns(p.Transformed(sym)))) << "symmetry " << sym;
  }
}

struct Config {
  RuleSet rules;
  int size;
  int games;
};
void PrintTo(const Config& c, std::ostream* os) { *os << RuleSetName(c.rules) << c.size; }

class RandomGames : public ::testing::TestWithParam<Config> {};

std::string ConfigName(const ::testing::TestParamInfo<Config>& param) {
  return std::string(RuleSetName(param.param.rules)) + std::to_string(param.param.size);
}

INSTANTIATE_TEST_SUITE_P(
    Variants, RandomGames,
    ::testing::Values(Config{RuleSet::kStandard, 7, 60}, Config{RuleSet::kStandard, 9, 40},
                      Config{RuleSet::kStandard, 10, 25}, Config{RuleSet::kClassic, 7, 60},
                      Config{RuleSet::kClassic, 9, 40}, Config{RuleSet::kClassic, 10, 25}),
    ConfigName);

TEST_P(RandomGames, PropertiesHoldAtEverySubDecision) {
  const Config c = GetParam();
  int swaps = 0, claims_seen = 0, turn_lists = 0;
  for (int game_index = 0; game_index < c.games; ++game_index) {
    SCOPED_TRACE("game " + std::to_string(game_index));
    util::Rng rng(1000003ULL * c.size + 7919ULL * game_index + static_cast<uint64_t>(c.rules));
    Position pos = Position::Initial(c.rules, c.size);
    Game game{pos, pos, {}, {}};
    const bool force_swap = game_index % 3 == 1;
    while (!pos.IsTerminal()) {
      ASSERT_LT(pos.TurnsPlayed(), 2 * c.size * c.size) << "game does not end";
      ASSERT_TRUE(AtTurnStart(pos));
      if (game.turns.size() % 9 == static_cast<size_t>(game_index % 9) &&
          CountTurns(pos) <= 20000) {
        CheckTurnList(pos);
        ++turn_lists;
      }
      Turn turn = RandomTurn(pos, rng);
      if (force_swap && pos.Pending() == Decision::kPie) {
        turn = Turn{};
        turn.Push(pos.PassAction());
      }
      swaps += pos.Pending() == Decision::kPie && turn[0] == pos.PassAction();

      // The turn in notation parses back to itself.
      const std::string text = TurnToString(pos, turn);
      const util::Result<Turn> parsed = ParseTurn(pos, text);
      ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error();
      ASSERT_EQ(parsed.value(), turn) << text;

      // Played one sub-decision at a time, with checks after each.
      Position step = pos;
      const int player = pos.ToMovePlayer();
      for (int i = 0; i < turn.length; ++i) {
        CheckSubDecision(step);
        ASSERT_TRUE(step.IsLegal(turn[i])) << text << " action " << i;
        EXPECT_EQ(step.ToMovePlayer(), player);  // constant within a turn
        EXPECT_EQ(step.TurnsPlayed(), pos.TurnsPlayed());
        step.Apply(turn[i]);
      }
      EXPECT_EQ(step.TurnsPlayed(), pos.TurnsPlayed() + 1);
      if (!step.IsTerminal()) {
        EXPECT_NE(step.ToMovePlayer(), player);  // players alternate turn by turn
      }
      Position fast = pos;
      ApplyTurn(fast, turn);
      ASSERT_EQ(fast, step) << text;

      // Playing commutes with the board symmetries.
      for (int sym = 1; sym < kNumSymmetries; ++sym) {
        Position image = pos.Transformed(sym);
        ApplyTurn(image, TransformTurn(pos, sym, turn));
        EXPECT_EQ(image, step.Transformed(sym)) << text << " symmetry " << sym;
      }

      if (pos.Pending() == Decision::kChooseShooter) {
        // Claims and the winner agree with the plain oracle.
        testing::NaiveBoard naive = testing::NaiveBoard::Of(pos);
        const bool moved = turn.length == 3;
        const std::optional<char> winner = naive.Play(pos.ToMove(), moved ? turn[0] : -1,
                                                      moved ? turn[1] : -1, turn[turn.length - 1]);
        EXPECT_EQ(testing::NaiveBoard::Of(step).cells, naive.cells) << text << "\n" << Diagram(pos);
        EXPECT_EQ(step.IsTerminal(), winner.has_value());
        if (winner) {
          EXPECT_EQ(step.Winner(), *winner == 'X' ? Color::kBlack : Color::kWhite);
        }
        claims_seen += step.ClaimCount(Color::kBlack) + step.ClaimCount(Color::kWhite) -
                       pos.ClaimCount(Color::kBlack) - pos.ClaimCount(Color::kWhite);
      } else {
        // Setup placements never claim.
        EXPECT_EQ(step.Claimed(Color::kBlack) | step.Claimed(Color::kWhite), Bitboard());
      }
      game.before.push_back(pos);
      game.turns.push_back(turn);
      pos = step;
    }
    CheckSubDecision(pos);
    EXPECT_TRUE(pos.Winner().has_value());
    EXPECT_GE(pos.ClaimCount(*pos.Winner()), pos.ClaimsToWin());
    game.final = pos;

    // The record in notation replays to the same game.
    const std::string record = RecordToString(game);
    const util::Result<Game> replay = PlayRecord(c.rules, c.size, record);
    ASSERT_TRUE(replay.ok()) << replay.error();
    EXPECT_EQ(replay.value().final, game.final);
    ASSERT_EQ(replay.value().turns.size(), game.turns.size());
    for (size_t i = 0; i < game.turns.size(); ++i)
      EXPECT_EQ(replay.value().turns[i], game.turns[i]);
    EXPECT_EQ(RecordToString(replay.value()), record);
  }
  if (c.rules == RuleSet::kStandard) {
    EXPECT_GE(swaps, c.games / 3);
  }
  EXPECT_GT(claims_seen, c.games);
  EXPECT_GT(turn_lists, c.games);
}

// FromState refuses fields no game can produce (the round trip of reachable positions is
// checked at every sub-decision above).
TEST(PositionState, InconsistentFieldsAreRefused) {
  const Position p = testing::AfterRecord(RuleSet::kStandard, 7, "e3/e4 b4,b6/a4");
  const PositionState good = p.State();
  ASSERT_TRUE(Position::FromState(good).has_value());
  auto refused = [](PositionState s) { return !Position::FromState(s).has_value(); };
  PositionState s = good;
  s.size = 8;
  EXPECT_TRUE(refused(s));
  s = good;
  s.stones[1].Set(testing::Sq(7, "e4"));  // a square holding both colours
  EXPECT_TRUE(refused(s));
  s = good;
  s.shooters.Clear(testing::Sq(7, "e3"));  // a shooter missing in the play phase
  EXPECT_TRUE(refused(s));
  s = good;
  s.moved_to = testing::Sq(7, "e3");  // a moved shooter outside the shot decision
  EXPECT_TRUE(refused(s));
  s = good;
  s.pending = Decision::kDestination;  // a destination without a chosen shooter
  EXPECT_TRUE(refused(s));
  s = good;
  s.origin = 49;  // off the board
  EXPECT_TRUE(refused(s));
  // Squares of the 128-bit board past the 100 of the largest board: refused before the
  // hash looks them up (UBSan found the out-of-bounds read; fuzz_sample_file, issue 13).
  for (int sq : {49, 100, 127}) {
    s = good;
    s.claimed[1].Set(sq);
    EXPECT_TRUE(refused(s)) << sq;
    s = good;
    s.stones[0].Set(sq);
    EXPECT_TRUE(refused(s)) << sq;
  }
  s = good;
  s.claimed[0] = s.shooters;  // three claimed by Black but the game not over
  s.shooters = Bitboard();
  EXPECT_TRUE(refused(s));
  s.pending = Decision::kGameOver;
  EXPECT_FALSE(refused(s));
}

// The symmetries form the dihedral group: s = 4*transpose + 2*flip_rows + flip_cols,
// transpose first (symmetry.h). Checked on squares against that definition, then Compose
// and Inverse against composition of the square maps.
TEST(Symmetry, SquareMapsFollowTheDefinition) {
  for (int n : {7, 9, 10}) {
    for (int sym = 0; sym < kNumSymmetries; ++sym) {
      for (int sq = 0; sq < n * n; ++sq) {
        int row = sq / n, col = sq % n;
        if (sym & 4) std::swap(row, col);
        if (sym & 2) row = n - 1 - row;
        if (sym & 1) col = n - 1 - col;
        EXPECT_EQ(TransformSquare(n, sym, sq), row * n + col);
      }
      EXPECT_EQ(TransformAction(n, sym, n * n), n * n);  // the pass slot is fixed
    }
    EXPECT_EQ(SquareName(n, TransformSquare(n, 1, testing::Sq(n, "a1"))), SquareName(n, n - 1));
    EXPECT_EQ(TransformSquare(n, 4, testing::Sq(n, "b1")), testing::Sq(n, "a2"));
  }
}

TEST(Symmetry, ComposeAndInverseAreConsistent) {
  for (int n : {7, 9, 10}) {
    for (int a = 0; a < kNumSymmetries; ++a) {
      for (int b = 0; b < kNumSymmetries; ++b) {
        const int ab = ComposeSymmetry(b, a);  // a first, then b
        for (int sq = 0; sq < n * n; ++sq) {
          EXPECT_EQ(TransformSquare(n, ab, sq), TransformSquare(n, b, TransformSquare(n, a, sq)));
        }
      }
      const int inv = InverseSymmetry(a);
      EXPECT_EQ(ComposeSymmetry(inv, a), 0);
      EXPECT_EQ(ComposeSymmetry(a, inv), 0);
      for (int sq = 0; sq < n * n; ++sq) {
        EXPECT_EQ(TransformSquare(n, inv, TransformSquare(n, a, sq)), sq);
      }
    }
  }
  // The eight maps are distinct.
  for (int a = 0; a < kNumSymmetries; ++a) {
    for (int b = a + 1; b < kNumSymmetries; ++b) {
      bool same = true;
      for (int sq = 0; sq < 100; ++sq)
        same = same && TransformSquare(10, a, sq) == TransformSquare(10, b, sq);
      EXPECT_FALSE(same) << a << " " << b;
    }
  }
  // Positions: transforming twice equals transforming once by the composition.
  const Position p = testing::AfterRecord(RuleSet::kStandard, 9, "c8,h4/g8 d6,g6,h2/d8 d6-d3/b3");
  for (int a = 0; a < kNumSymmetries; ++a) {
    for (int b = 0; b < kNumSymmetries; ++b) {
      EXPECT_EQ(p.Transformed(a).Transformed(b), p.Transformed(ComposeSymmetry(b, a)));
    }
  }
}

// Chi-square statistic of `counts` against a uniform distribution.
double ChiSquare(const std::vector<int>& counts, int samples) {
  const double expected = static_cast<double>(samples) / counts.size();
  double chi = 0;
  for (int c : counts) chi += (c - expected) * (c - expected) / expected;
  return chi;
}

// Draws `samples` turns with RandomTurn and checks that every legal turn is drawn and the
// counts pass a chi-square test for uniformity with a generous threshold (mean + 6 standard
// deviations of the chi-square distribution; the seed is fixed, so the test is stable).
void ExpectUniform(const Position& p, int samples, uint64_t seed) {
  const std::vector<Turn> legal = LegalTurns(p);
  const std::vector<uint64_t> keys = SortedKeys(legal);
  std::vector<int> counts(keys.size(), 0);
  util::Rng rng(seed);
  for (int i = 0; i < samples; ++i) {
    const uint64_t k = Key(RandomTurn(p, rng));
    const auto it = std::lower_bound(keys.begin(), keys.end(), k);
    ASSERT_TRUE(it != keys.end() && *it == k) << "RandomTurn drew an illegal turn";
    ++counts[it - keys.begin()];
  }
  EXPECT_EQ(std::count(counts.begin(), counts.end(), 0), 0) << "a legal turn was never drawn";
  const double df = static_cast<double>(keys.size()) - 1;
  EXPECT_LT(ChiSquare(counts, samples), df + 6 * std::sqrt(2 * df)) << keys.size() << " turns";
}

TEST(RandomTurn, UniformOverPlayTurnsOfASmallPosition) {
  // 100 turns: the shooter on a1 has a single move turn (a1-b1/a1), c5 and g4 have 28 and
  // 57, and there are 14 stationary shots. A draw that picked the shooter or the
  // destination uniformly first, rather than the full turn, would fail by far.
  const Position p = testing::FromDiagram(RuleSet::kStandard, R"(
    . x . . . . x
    . . . x . . .
    x . S x . o .
    . x x x . . S
    x x . o o . .
    x x x o . . .
    S . o x . o x
  )");
  ASSERT_EQ(CountTurns(p), 100u);
  ExpectUniform(p, 100 * 400, 17);
}

TEST(RandomTurn, UniformOverSetupTurns) {
  ExpectUniform(Position::Initial(RuleSet::kClassic, 7), 49 * 400, 18);
  ExpectUniform(testing::AfterRecord(RuleSet::kClassic, 7, "d4"), 100000, 19);
  // The pie position: 11386 turns, swap included.
  const Position pie = testing::AfterRecord(RuleSet::kStandard, 7, "d4/e4");
  ASSERT_EQ(CountTurns(pie), 11386u);
  ExpectUniform(pie, 11386 * 40, 20);
}

// The swap is a single one of the pie position's 11386 turns, which barely moves the
// chi-square statistic above; its frequency is checked on its own: 1 / (1 + C(23,2) * 45).
TEST(RandomTurn, SwapIsDrawnWithItsShareOfThePieTurns) {
  const Position pie = testing::AfterRecord(RuleSet::kStandard, 7, "d4/e4");
  const double p_swap = 1.0 / (1 + 253 * 45);
  util::Rng rng(21);
  const int samples = 1500000;
  int swaps = 0;
  for (int i = 0; i < samples; ++i) {
    const Turn t = RandomTurn(pie, rng);
    swaps += t.length == 1 && t[0] == pie.PassAction();
  }
  const double expected = samples * p_swap;  // about 132
  EXPECT_NEAR(swaps, expected, 5 * std::sqrt(expected));
}

TEST(RandomTurnStarts, AreDeterministicVariedTurnStarts) {
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    const std::vector<Position> a = RandomTurnStarts(rs, 9, 200, 5);
    const std::vector<Position> b = RandomTurnStarts(rs, 9, 200, 5);
    const std::vector<Position> c = RandomTurnStarts(rs, 9, 200, 6);
    ASSERT_EQ(a.size(), 200u);
    std::vector<uint64_t> hashes;
    bool differs = false;
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_FALSE(a[i].IsTerminal());
      EXPECT_EQ(a[i].Size(), 9);
      EXPECT_TRUE(AtTurnStart(a[i]));
      EXPECT_EQ(a[i].Hash(), b[i].Hash());
      differs |= a[i].Hash() != c[i].Hash();
      hashes.push_back(a[i].Hash());
    }
    EXPECT_TRUE(differs);
    std::sort(hashes.begin(), hashes.end());
    EXPECT_GT(std::unique(hashes.begin(), hashes.end()) - hashes.begin(), 150);
  }
}

}  // namespace
}  // namespace veletas::rules
