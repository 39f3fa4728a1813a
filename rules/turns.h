// Full turns: what a record move is. A full turn is the path of sub-decision actions from a
// turn boundary to the next one, so the set of legal full turns is exactly the set of
// complete sub-decision paths. Play-phase turns have fast dedicated generators; setup
// turns are enumerated through the sub-decisions.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "rules/position.h"
#include "util/random.h"

namespace veletas::rules {

// A full turn as its sub-decision actions, in order. Trivially copyable.
//  play turn with a move: {shooter square, destination, shot}
//  play turn without a move: {pass, shot}
//  standard setup: {shooters in notation order..., stone}; classic setup: {shooters...}
//  (White's first shooter is the action of the kPie decision when the swap is declined)
//  swap: {pass} at the kPie decision.
struct Turn {
  static constexpr int kMaxLength = 7;
  std::array<uint8_t, kMaxLength> actions{};
  uint8_t length = 0;

  void Push(Action a) { actions[length++] = static_cast<uint8_t>(a); }
  Action operator[](int i) const { return actions[i]; }
  bool operator==(const Turn& o) const {
    if (length != o.length) return false;
    for (int i = 0; i < length; ++i) {
      if (actions[i] != o.actions[i]) return false;
    }
    return true;
  }
};

// Builds a play-phase turn; from = -1 for a turn without a shooter move.
Turn MakePlayTurn(const Position& pos, int from, int to, int shot);

// Applies a full turn. Precondition: the turn is legal in `pos`.
void ApplyTurn(Position& pos, const Turn& turn);

// Calls f(turn) for every legal full turn, each exactly once. Nothing when terminal.
void ForEachTurn(const Position& pos, const std::function<void(const Turn&)>& f);

// Every legal full turn (order unspecified).
std::vector<Turn> LegalTurns(const Position& pos);

// Every legal full turn, found by walking the sub-decision tree (reference for tests).
std::vector<Turn> TurnsBySubDecisions(const Position& pos);

// Number of legal full turns, without materialising them.
uint64_t CountTurns(const Position& pos);

// True when `pos` waits for the first sub-decision of a turn (a setup placement before any
// shooter of the turn, the pie decision, or choosing a shooter); false mid-turn and at the
// end of the game.
bool AtTurnStart(const Position& pos);

// A legal full turn drawn uniformly from all legal full turns. Precondition: !terminal.
Turn RandomTurn(const Position& pos, util::Rng& rng);

// `count` turn-start positions (never terminal) from seeded uniformly random games: one from
// each game, at a turn drawn uniformly from it. Deterministic in `seed`.
std::vector<Position> RandomTurnStarts(RuleSet rs, int size, int count, uint64_t seed);

// Number of legal full-turn sequences of length `depth` (perft). perft(0) = 1; a
// terminal position has no continuations.
uint64_t Perft(const Position& pos, int depth);

}  // namespace veletas::rules
