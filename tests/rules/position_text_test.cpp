// rules/position_text.h: a position in words.
#include "rules/position_text.h"

#include <gtest/gtest.h>

#include "rules/notation.h"

namespace veletas::rules {
namespace {

TEST(PositionText, EveryDecisionHasItsWords) {
  EXPECT_STREQ(DecisionText(Decision::kSetupShooter), "place a setup shooter");
  EXPECT_STREQ(DecisionText(Decision::kShot), "shoot");
  EXPECT_STREQ(DecisionText(Decision::kGameOver), "none (game over)");
  EXPECT_STREQ(ColorWord(Color::kBlack), "Black");
  EXPECT_STREQ(ColorWord(Color::kWhite), "White");
}

TEST(PositionText, TheReportOfTheFirstPosition) {
  const auto game = PlayRecord(RuleSet::kStandard, 7, "");
  ASSERT_TRUE(game.ok()) << game.error();
  const Position& pos = game.value().final;
  EXPECT_EQ(PositionReport(pos),
            "rules: standard, 7x7, 0 turns played\n"
            "to move: " +
                std::string(ColorWord(pos.ToMove())) + " (first player)\n" +
                "decision: " + DecisionText(pos.Pending()) + "\n" + "claimed: Black 0, White 0 (" +
                std::to_string(pos.ClaimsToWin()) + " to win)\n" +
                "winner: none\n"
                "legend: x black stone, o white stone, S shooter, X/O shooter claimed by "
                "Black/White\n");
}

// "1 turn played", "2 turns played".
TEST(PositionText, TurnsPlayedAgreesInNumber) {
  const auto one = PlayRecord(RuleSet::kStandard, 7, "c3/a1");
  ASSERT_TRUE(one.ok()) << one.error();
  EXPECT_NE(PositionReport(one.value().final).find(", 1 turn played\n"), std::string::npos);
  const auto two = PlayRecord(RuleSet::kStandard, 7, "c3/a1 b5,c4/g6");
  ASSERT_TRUE(two.ok()) << two.error();
  EXPECT_NE(PositionReport(two.value().final).find(", 2 turns played\n"), std::string::npos);
}

}  // namespace
}  // namespace veletas::rules
