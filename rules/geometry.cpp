#include "rules/geometry.h"

#include <cstdlib>

#include "util/random.h"

namespace veletas::rules {
namespace {

Geometry Build(int size) {
  Geometry g;
  g.size = size;
  g.squares = size * size;
  g.board = Bitboard::FirstN(g.squares);
  for (int sq = 0; sq < g.squares; ++sq) {
    const int row = sq / size, col = sq % size;
    if (row > 0 && row < size - 1 && col > 0 && col < size - 1) g.interior.Set(sq);
    if (col > 0) g.west_edge_clear.Set(sq);
    if (col < size - 1) g.east_edge_clear.Set(sq);
    g.order_key[sq] = col * size + row;
    for (int d = 0; d < kNumDirections; ++d) {
      for (int r = row + kDirRow[d], c = col + kDirCol[d]; g.OnBoard(r, c);
           r += kDirRow[d], c += kDirCol[d]) {
        g.ray[sq][d].Set(g.SquareAt(r, c));
      }
      if (g.OnBoard(row + kDirRow[d], col + kDirCol[d])) {
        const int n = g.SquareAt(row + kDirRow[d], col + kDirCol[d]);
        g.king[sq].Set(n);
        if (kDirRow[d] == 0 || kDirCol[d] == 0) g.ortho[sq].Set(n);
      }
    }
  }
  for (int sq = 0; sq < g.squares; ++sq) {
    for (int other = 0; other < g.squares; ++other) {
      if (g.order_key[other] > g.order_key[sq]) g.later[sq].Set(other);
    }
  }
  return g;
}

uint64_t SplitMix(uint64_t& state) {
  const uint64_t z = util::SplitMix64(state);
  state += 0x9E3779B97F4A7C15ULL;
  return z;
}

ZobristKeys BuildZobrist() {
  ZobristKeys z;
  uint64_t state = 0x5645'4C45'5441'5321ULL;  // "VELETAS!"
  for (auto& kind : z.piece)
    for (auto& key : kind) key = SplitMix(state);
  for (auto& key : z.origin) key = SplitMix(state);
  for (auto& key : z.moved_to) key = SplitMix(state);
  for (auto& key : z.last_placed) key = SplitMix(state);
  for (auto& key : z.decision) key = SplitMix(state);
  for (auto& key : z.placed_this_turn) key = SplitMix(state);
  z.white_to_move = SplitMix(state);
  z.swapped = SplitMix(state);
  for (auto& key : z.rules) key = SplitMix(state);
  for (auto& key : z.size) key = SplitMix(state);
  return z;
}

}  // namespace

int Geometry::DirectionBetween(int from, int to) const {
  for (int d = 0; d < kNumDirections; ++d) {
    if (ray[from][d].Test(to)) return d;
  }
  return -1;
}

const Geometry& GeometryFor(int size) {
  static const Geometry g7 = Build(7);
  static const Geometry g9 = Build(9);
  static const Geometry g10 = Build(10);
  switch (size) {
    case 7:
      return g7;
    case 9:
      return g9;
    case 10:
      return g10;
    default:
      std::abort();  // precondition violated: unsupported size
  }
}

const ZobristKeys& Zobrist() {
  static const ZobristKeys keys = BuildZobrist();
  return keys;
}

}  // namespace veletas::rules
