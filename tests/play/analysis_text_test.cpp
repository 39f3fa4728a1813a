// play/analysis_text.h: the table of `veletas analyse`.
#include "play/analysis_text.h"

#include <gtest/gtest.h>

namespace veletas::play {
namespace {

MoveAnalysis Move(int index, int player, const std::string& mark) {
  MoveAnalysis m;
  m.index = index;
  m.player = player;
  m.color = player == 0 ? rules::Color::kBlack : rules::Color::kWhite;
  m.move = "c3";
  m.before = 0.6f;
  m.after = 0.35f;
  m.drop = 0.25f;
  m.mark = mark;
  m.best_move = "d4";
  m.best_win_rate = 0.625f;
  return m;
}

TEST(AnalysisText, ALineNamesTheMoverTheWinRatesAndTheBestMove) {
  EXPECT_EQ(MoverName(Move(0, 1, "")), "White (2nd)");
  // Columns: number (4), mover (11), move (18), before and after (7), drop (6), mark (3),
  // best move (18), its win rate (7).
  const std::string pad(16, ' ');
  EXPECT_EQ(AnalysisTableLine(Move(4, 0, "??")),
            "   5  Black (1st) c3" + pad + "   60.0%   35.0%   25.0 ??  d4" + pad + "   62.5%\n");
}

TEST(AnalysisText, BudgetsAndMarksInWords) {
  EXPECT_EQ(BudgetText({200, 0}, false), "200 simulations per sub-decision");
  EXPECT_EQ(BudgetText({1000, 0}, true), "1000 playouts per position");
  EXPECT_EQ(BudgetText({0, 500}, false), "500 ms per position");
  const std::vector<MoveAnalysis> moves = {Move(0, 0, "??"), Move(1, 1, "?"), Move(2, 0, "?"),
                                           Move(3, 1, "")};
  const auto marks = CountMarks(moves);
  EXPECT_EQ(marks[0][0], 1);
  EXPECT_EQ(marks[0][1], 1);
  EXPECT_EQ(marks[1][0], 0);
  EXPECT_EQ(marks[1][1], 1);
  EXPECT_EQ(MarksText(moves),
            "first player: 1 blunder(s) ??, 1 mistake(s) ?\n"
            "second player: 0 blunder(s) ??, 1 mistake(s) ?\n");
}

TEST(AnalysisText, TheHeadSaysWhatTheMarksMean) {
  AnalysisOptions o;
  const std::string head =
      AnalysisTableHead(rules::RuleSet::kStandard, 7, 12, "uct:1000", "1000 playouts", o);
  EXPECT_EQ(head.rfind("analysis: standard 7x7, 12 moves; engine uct:1000, 1000 playouts\n", 0), 0u)
      << head;
  EXPECT_NE(head.find("?? = dropped more than 20%, ? = more than 10%\n"), std::string::npos)
      << head;
}

// The columns say what they hold (not "best best"); the JSON's fractions are rounded.
TEST(AnalysisText, ColumnsAreNamedAndJsonNumbersRounded) {
  AnalysisOptions o;
  const std::string head =
      AnalysisTableHead(rules::RuleSet::kStandard, 7, 12, "uct:1000", "1000 playouts", o);
  EXPECT_NE(head.find("drop %"), std::string::npos) << head;
  EXPECT_NE(head.find("best move"), std::string::npos) << head;
  EXPECT_EQ(head.find("best  best"), std::string::npos) << head;
  MoveAnalysis m;
  m.before = 0.61234567f;
  m.drop = 0.1f;
  const std::string json =
      AnalysisJson(rules::RuleSet::kStandard, 7, "uct:1000", "1000 playouts", o, {m});
  EXPECT_NE(json.find("\"blunder_drop\": 0.2,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"win_rate_before\": 0.6123"), std::string::npos) << json;
  EXPECT_NE(json.find("\"drop\": 0.1,"), std::string::npos) << json;
}

}  // namespace
}  // namespace veletas::play
