// The 8 symmetries of the square board (the dihedral group), acting on squares,
// bitboards, actions, positions and full turns.
// Symmetry s = 4*transpose + 2*flip_rows + flip_cols: transpose first, then the flips.
// Identity is 0. All functions are pure and thread-safe.
#pragma once

#include "rules/bitboard.h"
#include "rules/position.h"
#include "rules/turns.h"

namespace veletas::rules {

inline constexpr int kNumSymmetries = 8;

// Image of square `sq` under `sym` on a board of `size`.
int TransformSquare(int size, int sym, int sq);
Bitboard TransformBitboard(int size, int sym, Bitboard b);
// Squares map as squares; the pass slot maps to itself.
Action TransformAction(int size, int sym, Action a);
// The symmetry equal to applying `second` after `first`.
int ComposeSymmetry(int second, int first);
int InverseSymmetry(int sym);
// The image of a full turn legal in `before`; in setup turns the shooters are re-sorted
// into notation order, so the result is legal in before.Transformed(sym).
Turn TransformTurn(const Position& before, int sym, const Turn& turn);

}  // namespace veletas::rules
