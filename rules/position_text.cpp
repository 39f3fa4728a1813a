#include "rules/position_text.h"

#include "rules/notation.h"

namespace veletas::rules {

const char* ColorWord(Color c) { return c == Color::kBlack ? "Black" : "White"; }

const char* DecisionText(Decision d) {
  switch (d) {
    case Decision::kSetupShooter:
      return "place a setup shooter";
    case Decision::kSetupStone:
      return "place the setup stone";
    case Decision::kPie:
      return "swap colours, or decline by placing White's setup";
    case Decision::kChooseShooter:
      return "move a shooter (or not), then shoot";
    case Decision::kDestination:
      return "move the chosen shooter";
    case Decision::kShot:
      return "shoot";
    case Decision::kGameOver:
      return "none (game over)";
  }
  return "?";
}

std::string PositionReport(const Position& pos) {
  const std::string n = std::to_string(pos.Size());
  const auto winner = pos.Winner();
  return std::string("rules: ") + RuleSetName(pos.Rules()) + ", " + n + "x" + n + ", " +
         std::to_string(pos.TurnsPlayed()) +
         (pos.TurnsPlayed() == 1 ? " turn played\n" : " turns played\n") +
         "to move: " + ColorWord(pos.ToMove()) + " (" +
         (pos.ToMovePlayer() == 0 ? "first" : "second") + " player)\n" +
         "decision: " + DecisionText(pos.Pending()) + "\n" + "claimed: Black " +
         std::to_string(pos.ClaimCount(Color::kBlack)) + ", White " +
         std::to_string(pos.ClaimCount(Color::kWhite)) + " (" + std::to_string(pos.ClaimsToWin()) +
         " to win)\n" + "winner: " + (winner ? ColorWord(*winner) : "none") + "\n" +
         DiagramLegend() + "\n";
}

const char* DiagramLegend() {
  return "legend: x black stone, o white stone, S shooter, X/O shooter claimed by Black/White";
}

}  // namespace veletas::rules
