// Board geometry of each supported size: square masks, queen rays, neighbours, the
// setup placement order, and Zobrist keys. Tables are built once and are immutable.
#pragma once

#include <array>
#include <cstdint>

#include "rules/bitboard.h"

namespace veletas::rules {

inline constexpr int kMaxSize = 10;
inline constexpr int kMaxSquares = kMaxSize * kMaxSize;
// One action slot per square plus the pass-like slot.
inline constexpr int kMaxActions = kMaxSquares + 1;
inline constexpr int kNumDirections = 8;

// True for the board sizes the rules define (7, 9, 10).
constexpr bool IsSupportedSize(int size) { return size == 7 || size == 9 || size == 10; }

// Direction d in 0..3 increases the square index (E, N, NE, NW); 4..7 decrease it
// (W, S, SW, SE). kOpposite[d] is the reverse direction.
inline constexpr std::array<int, kNumDirections> kDirRow = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, kNumDirections> kDirCol = {1, 0, 1, -1, -1, 0, -1, 1};
inline constexpr std::array<int, kNumDirections> kOpposite = {4, 5, 6, 7, 0, 1, 2, 3};

// Immutable per-size tables. Obtain with GeometryFor(); thread-safe to read.
struct Geometry {
  int size = 0;
  int squares = 0;
  Bitboard board;     // every square of the board
  Bitboard interior;  // squares not on the perimeter
  std::array<std::array<Bitboard, kNumDirections>, kMaxSquares> ray{};  // excludes origin
  std::array<Bitboard, kMaxSquares> king{};                             // the 8 neighbours
  std::array<Bitboard, kMaxSquares> ortho{};  // the 4 orthogonal neighbours
  // Setup order: shooters of one setup turn are placed in notation order (column, then
  // row). later[sq] is the set of squares after sq in that order.
  std::array<Bitboard, kMaxSquares> later{};
  std::array<int, kMaxSquares> order_key{};  // col * size + row
  Bitboard west_edge_clear;                  // squares that have a west neighbour
  Bitboard east_edge_clear;                  // squares that have an east neighbour

  // Squares reachable from `sq` along queen lines, each line stopping at (and including)
  // the first square of `blockers`.
  Bitboard Attacks(int sq, Bitboard blockers) const {
    Bitboard result;
    for (int d = 0; d < 4; ++d) {
      Bitboard r = ray[sq][d];
      Bitboard b = r & blockers;
      if (b.Any()) r ^= ray[b.Lsb()][d];
      result |= r;
    }
    for (int d = 4; d < 8; ++d) {
      Bitboard r = ray[sq][d];
      Bitboard b = r & blockers;
      if (b.Any()) r ^= ray[b.Msb()][d];
      result |= r;
    }
    return result;
  }
  // Squares reachable from `sq` in direction d, stopping at the first blocker (included).
  Bitboard AttacksInDirection(int sq, int d, Bitboard blockers) const {
    Bitboard r = ray[sq][d];
    Bitboard b = r & blockers;
    if (b.Any()) r ^= ray[d < 4 ? b.Lsb() : b.Msb()][d];
    return r;
  }
  // Orthogonal neighbours of every square of `set`, restricted to the board.
  Bitboard OrthoSpread(Bitboard set) const {
    return (((set << 1) & west_edge_clear) | ((set >> 1) & east_edge_clear) | (set << size) |
            (set >> size)) &
           board;
  }
  int Row(int sq) const { return sq / size; }
  int Col(int sq) const { return sq % size; }
  int SquareAt(int row, int col) const { return row * size + col; }
  bool OnBoard(int row, int col) const { return row >= 0 && row < size && col >= 0 && col < size; }
  // Sorts n squares into setup (notation) order: column, then row. Insertion sort: n is
  // at most the number of shooters.
  template <class T>
  void SortInSetupOrder(T* list, int n) const {
    for (int i = 1; i < n; ++i) {
      const T sq = list[i];
      int j = i - 1;
      for (; j >= 0 && order_key[list[j]] > order_key[sq]; --j) list[j + 1] = list[j];
      list[j + 1] = sq;
    }
  }
  // Direction from `from` to `to` if they share a queen line, else -1.
  int DirectionBetween(int from, int to) const;
};

// Tables for a supported size; precondition: IsSupportedSize(size).
const Geometry& GeometryFor(int size);

// Zobrist keys, shared by every size. Deterministic (fixed seed).
struct ZobristKeys {
  // Piece kinds: 0 black stone, 1 white stone, 2 unclaimed shooter,
  // 3 shooter claimed by Black, 4 shooter claimed by White.
  std::array<std::array<uint64_t, kMaxSquares>, 5> piece{};
  std::array<uint64_t, kMaxSquares> origin{};       // chosen shooter awaiting destination
  std::array<uint64_t, kMaxSquares> moved_to{};     // moved shooter awaiting its shot
  std::array<uint64_t, kMaxSquares> last_placed{};  // setup ordering state
  std::array<uint64_t, 8> decision{};
  std::array<uint64_t, 8> placed_this_turn{};
  uint64_t white_to_move = 0;
  uint64_t swapped = 0;
  std::array<uint64_t, 2> rules{};
  std::array<uint64_t, kMaxSize + 1> size{};
};
const ZobristKeys& Zobrist();

}  // namespace veletas::rules
