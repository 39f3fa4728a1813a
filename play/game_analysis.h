// Game analysis (`veletas analyse`): for each move of a record, the mover's win rate before
// and after it, the engine's preferred move, and a mark when the move lost much.
//
// The win rate of a position is the search's estimate for the player to move of the turn
// it would choose (TurnSearcher::Search's best). The win rate before move i is that of the
// position before it; the win rate after it is that of the next position, seen by the
// mover (one minus the opponent's estimate; exact when the move ended the game). Each
// position is searched once.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "play/turn_search.h"
#include "rules/notation.h"

namespace veletas::play {

struct AnalysisOptions {
  SearchBudget budget;
  int first_move = 0;          // 0-based index of the first move to analyse
  float blunder_drop = 0.20f;  // drop above which a move is marked "??"
  float mistake_drop = 0.10f;  // drop above which a move is marked "?"
};

struct MoveAnalysis {
  int index = 0;   // 0-based; the record's move index + 1 is its number
  int player = 0;  // the mover: 0 first player, 1 second
  rules::Color color = rules::Color::kBlack;
  std::string move;          // as played, in notation
  float before = 0.5f;       // mover's win rate before the move
  float after = 0.5f;        // mover's win rate after it
  bool after_exact = false;  // the move ended the game
  float drop = 0.0f;         // before - after
  std::string best_move;     // the engine's preferred move in the position before
  float best_win_rate = 0.5f;
  std::vector<std::string> best_pv;  // its expected continuation (turns in notation)
  std::string mark;                  // "??", "?" or ""
};

// "??" when drop > blunder_drop, "?" when drop > mistake_drop, else "".
std::string MarkFor(float drop, const AnalysisOptions& options);

// Analyses moves options.first_move .. end of `game`, calling `on_move` as each is done
// (in order) and returning them all. Preconditions: the budget is positive; first_move in
// [0, turns]. Not thread-safe (uses `searcher`).
std::vector<MoveAnalysis> AnalyseGame(const rules::Game& game, TurnSearcher& searcher,
                                      const AnalysisOptions& options,
                                      const std::function<void(const MoveAnalysis&)>& on_move);

}  // namespace veletas::play
