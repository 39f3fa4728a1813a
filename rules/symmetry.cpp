#include "rules/symmetry.h"

#include <algorithm>
#include <array>

namespace veletas::rules {
namespace {

int MapSquare(int size, int sym, int sq) {
  int row = sq / size, col = sq % size;
  if (sym & 4) std::swap(row, col);
  if (sym & 2) row = size - 1 - row;
  if (sym & 1) col = size - 1 - col;
  return row * size + col;
}

struct Tables {
  // square maps for sizes 7, 9, 10 (index by size)
  std::array<std::array<std::array<uint8_t, kMaxSquares>, kNumSymmetries>, kMaxSize + 1> map{};
  std::array<std::array<int, kNumSymmetries>, kNumSymmetries> compose{};
  std::array<int, kNumSymmetries> inverse{};
};

Tables Build() {
  Tables t;
  for (int size : {7, 9, 10}) {
    for (int s = 0; s < kNumSymmetries; ++s) {
      for (int sq = 0; sq < size * size; ++sq) {
        t.map[size][s][sq] = static_cast<uint8_t>(MapSquare(size, s, sq));
      }
    }
  }
  // Compose by matching the action on the 10x10 board (a faithful action).
  for (int a = 0; a < kNumSymmetries; ++a) {
    for (int b = 0; b < kNumSymmetries; ++b) {
      for (int c = 0; c < kNumSymmetries; ++c) {
        bool same = true;
        for (int sq = 0; sq < 100 && same; ++sq) {
          same = t.map[10][a][t.map[10][b][sq]] == t.map[10][c][sq];
        }
        if (same) t.compose[a][b] = c;
      }
      if (t.compose[a][b] == 0) t.inverse[b] = a;
    }
  }
  return t;
}

const Tables& GetTables() {
  static const Tables tables = Build();
  return tables;
}

}  // namespace

int TransformSquare(int size, int sym, int sq) { return GetTables().map[size][sym][sq]; }

Bitboard TransformBitboard(int size, int sym, Bitboard b) {
  if (sym == 0) return b;
  const auto& map = GetTables().map[size][sym];
  Bitboard out;
  for (int sq : b) out.Set(map[sq]);
  return out;
}

Action TransformAction(int size, int sym, Action a) {
  return a == size * size ? a : TransformSquare(size, sym, a);
}

int ComposeSymmetry(int second, int first) { return GetTables().compose[second][first]; }

int InverseSymmetry(int sym) { return GetTables().inverse[sym]; }

Position Position::Transformed(int sym) const {
  Position p = *this;
  const int n = size_;
  for (int c = 0; c < 2; ++c) {
    p.stones_[c] = TransformBitboard(n, sym, stones_[c]);
    p.claimed_[c] = TransformBitboard(n, sym, claimed_[c]);
  }
  p.shooters_ = TransformBitboard(n, sym, shooters_);
  auto map = [&](int8_t sq) -> int8_t {
    return sq < 0 ? sq : static_cast<int8_t>(TransformSquare(n, sym, sq));
  };
  p.origin_ = map(origin_);
  p.moved_from_ = map(moved_from_);
  p.moved_to_ = map(moved_to_);
  p.last_placed_ = map(last_placed_);
  p.hash_ = p.ComputeHash();
  return p;
}

Turn TransformTurn(const Position& before, int sym, const Turn& turn) {
  const int n = before.Size();
  Turn out = turn;
  for (int i = 0; i < turn.length; ++i)
    out.actions[i] = static_cast<uint8_t>(TransformAction(n, sym, turn[i]));
  const bool setup = before.Pending() == Decision::kSetupShooter ||
                     (before.Pending() == Decision::kPie && turn[0] != before.PassAction());
  if (setup) {
    const Geometry& g = before.Geo();
    const int shooters = before.Rules() == RuleSet::kStandard ? turn.length - 1 : turn.length;
    g.SortInSetupOrder(out.actions.data(), shooters);
  }
  return out;
}

}  // namespace veletas::rules
