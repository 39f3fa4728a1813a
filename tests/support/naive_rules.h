// A deliberately plain second implementation of the play phase of docs/RULES.md (a grid of
// characters, walking rays square by square, flood-filling groups), used by tests as an
// oracle for the bitboard rules core. Slow; tests only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/position.h"

namespace veletas::testing {

// Cells use the diagram alphabet: '.' empty, 'x'/'o' black/white stone, 'S' unclaimed
// shooter, 'X'/'O' shooter claimed by Black/White. Index = row * size + col, row 0 = rank 1.
struct NaiveBoard {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 0;
  std::vector<char> cells;

  // The board of a position (its pieces only; the pending decision is ignored).
  static NaiveBoard Of(const rules::Position& pos);

  // Empty squares a shooter standing on `from` may move or shoot to: along the 8 queen
  // lines; standard rules walk past shooters (claimed or not) and stop at stones, classic
  // rules stop at every piece.
  std::vector<int> Reach(int from) const;
  // An unclaimed shooter that cannot move.
  bool Trapped(int sq) const;
  // Size of the orthogonally connected group of stones `stone` ('x' or 'o') holding `sq`.
  int GroupSize(char stone, int sq) const;
  // Every legal play-phase turn in notation ("e7", "h6-d10/a10"), sorted.
  std::vector<std::string> Turns() const;
  // Plays a turn of `mover` (from = -1: no move), then decides every claim on the position
  // after the shot. Returns the winner's cell letter ('X' or 'O') once a majority is
  // claimed.
  std::optional<char> Play(rules::Color mover, int from, int to, int shot);
};

}  // namespace veletas::testing
