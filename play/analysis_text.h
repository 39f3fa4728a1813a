// A game analysis (play/game_analysis.h) in words: the table `veletas analyse` prints, and
// its JSON (--json).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "play/game_analysis.h"

namespace veletas::play {

// The mover of `m`: "Black (1st)", "White (2nd)", ...
std::string MoverName(const MoveAnalysis& m);

// "200 simulations per sub-decision" (a network), "1000 playouts per position" (`uct`) or
// "500 ms per position" (a time budget).
std::string BudgetText(const SearchBudget& budget, bool uct);

// The three lines above the table: the game, the number of `moves`, the `engine` and its
// `budget` (BudgetText); what the marks mean; the column heads.
std::string AnalysisTableHead(rules::RuleSet rules, int size, int moves, const std::string& engine,
                              const std::string& budget, const AnalysisOptions& options);

// The table's line of one move: number, mover, move, win rates before and after, the drop
// in percent, the mark, the engine's preferred move and its win rate.
std::string AnalysisTableLine(const MoveAnalysis& m);

// Blunders ("??") and mistakes ("?") of each player: [player][0: blunders, 1: mistakes].
std::array<std::array<int, 2>, 2> CountMarks(const std::vector<MoveAnalysis>& moves);

// "first player: 1 blunder(s) ??, 0 mistake(s) ?" and the same for the second player.
std::string MarksText(const std::vector<MoveAnalysis>& moves);

// `veletas analyse --json`: the game (`rules`, `size`), the `engine` and its `budget`, the
// drops that mark a blunder or a mistake, every analysed move and each player's marks; JSON
// indented by one space, without a final newline.
std::string AnalysisJson(rules::RuleSet rules, int size, const std::string& engine,
                         const std::string& budget, const AnalysisOptions& options,
                         const std::vector<MoveAnalysis>& moves);

}  // namespace veletas::play
