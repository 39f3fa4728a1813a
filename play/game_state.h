// A game being played through the interactive commands (play, engine): the positions and
// full turns so far, with undo and the record in notation.
#pragma once

#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/position.h"
#include "rules/position_text.h"
#include "rules/turns.h"

namespace veletas::play {

// Plain value type; not thread-safe.
class GameState {
 public:
  // A new game from the empty board. Precondition: rules::IsSupportedSize(size).
  GameState(rules::RuleSet rules, int size) : positions_{rules::Position::Initial(rules, size)} {}

  const rules::Position& Current() const { return positions_.back(); }
  rules::RuleSet Rules() const { return positions_.front().Rules(); }
  int Size() const { return positions_.front().Size(); }
  // Full turns played so far.
  int Turns() const { return static_cast<int>(turns_.size()); }
  // The position before turn i (i <= Turns(); i == Turns() is the current one).
  const rules::Position& Before(int i) const { return positions_[i]; }
  // Turn i (i < Turns()).
  const rules::Turn& TurnAt(int i) const { return turns_[i]; }

  // Plays `turn`. Precondition: legal in Current().
  void Play(const rules::Turn& turn) {
    rules::Position next = Current();
    rules::ApplyTurn(next, turn);
    turns_.push_back(turn);
    positions_.push_back(next);
  }
  // Takes back the last turn; false when there is none.
  bool Undo() {
    if (turns_.empty()) return false;
    turns_.pop_back();
    positions_.pop_back();
    return true;
  }
  // The moves so far in notation, separated by single spaces ("" before the first turn).
  std::string Record() const {
    std::string out;
    for (size_t i = 0; i < turns_.size(); ++i) {
      if (i > 0) out += ' ';
      out += rules::TurnToString(positions_[i], turns_[i]);
    }
    return out;
  }

 private:
  std::vector<rules::Position> positions_;  // positions_[i] = before turns_[i]; back() = now
  std::vector<rules::Turn> turns_;
};

using rules::ColorWord;

// Two lines about `pos` below its diagram: game, turn, who is to move and what to decide
// (or the winner), and the claims, e.g.
//   standard 7x7, 5 turns played; Black to move (first player): move a shooter, then shoot
//   claimed: Black 0, White 1 (2 to win)
inline std::string StatusLines(const rules::Position& pos) {
  std::string s = std::string(rules::RuleSetName(pos.Rules())) + " " + std::to_string(pos.Size()) +
                  "x" + std::to_string(pos.Size()) + ", " + std::to_string(pos.TurnsPlayed()) +
                  (pos.TurnsPlayed() == 1 ? " turn played; " : " turns played; ");
  if (pos.IsTerminal()) {
    const rules::Color w = *pos.Winner();
    s += std::string("game over: ") + ColorWord(w) + " (" +
         (pos.PlayerOf(w) == 0 ? "first" : "second") + " player) wins";
  } else {
    s += std::string(ColorWord(pos.ToMove())) + " to move (" +
         (pos.ToMovePlayer() == 0 ? "first" : "second") + " player): ";
    switch (pos.Pending()) {
      case rules::Decision::kPie:
        s += "swap, or place White's setup";
        break;
      case rules::Decision::kSetupShooter:
      case rules::Decision::kSetupStone:
        s += "place the setup";
        break;
      default:
        s += "move a shooter (or not), then shoot";
        break;
    }
  }
  s += "\nclaimed: Black " + std::to_string(pos.ClaimCount(rules::Color::kBlack)) + ", White " +
       std::to_string(pos.ClaimCount(rules::Color::kWhite)) + " (" +
       std::to_string(pos.ClaimsToWin()) + " to win)\n";
  return s;
}

}  // namespace veletas::play
