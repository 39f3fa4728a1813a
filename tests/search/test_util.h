// Helpers shared by the search tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/turns.h"

namespace veletas::search::testing {

// A play-phase position from diagram rows separated by '/', top row first.
inline rules::Position FromRows(std::string rows, rules::Color to_move,
                                rules::RuleSet rs = rules::RuleSet::kStandard) {
  for (char& c : rows) {
    if (c == '/') c = '\n';
  }
  auto r = rules::PositionFromDiagram(rs, rows, to_move);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
  return r.value();
}

// Turn-start positions from seeded random games (one per game, at a random turn).
inline std::vector<rules::Position> RandomPositions(rules::RuleSet rs, int size, int count,
                                                    uint64_t seed) {
  return rules::RandomTurnStarts(rs, size, count, seed);
}

// True when the player to move in `p` has a full turn that wins at once.
inline bool HasImmediateWin(const rules::Position& p) {
  bool win = false;
  rules::ForEachTurn(p, [&](const rules::Turn& t) {
    rules::Position q = p;
    rules::ApplyTurn(q, t);
    if (q.IsTerminal() && q.Winner() == p.ToMove()) win = true;
  });
  return win;
}

// 7x7, Black to move with one claim: a shot on b2 traps the a1 shooter next to Black's
// stones a2, b1 (group of three with b2), so Black claims it and wins. Few turns do that
// (6 of 372: a shot on b2 with a1 unmoved).
inline rules::Position WinningClaimPosition() {
  return FromRows("......./......./......./...X.../......./x....../Sx....S", rules::Color::kBlack);
}

// 7x7 endgame, Black to move, no claims yet: 76 of Black's 79 turns let White claim two
// shooters with one shot (an immediate win); 3 turns are safe. (Counts from enumerating
// every turn; Tactics.PositionsAreWhatTheTestsNeed re-checks them.)
inline rules::Position DefensePosition() {
  return FromRows(".xoxxS./oxxo.oS/...oxxo/.S..o../..ox.o./..xo.oo/.x.x.x.", rules::Color::kBlack);
}

}  // namespace veletas::search::testing
