// Notation per RULES.md (compatible with AbstractPlay's records), game records, and the
// text diagram of a position. All parsers return errors as values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "util/result.h"

namespace veletas::rules {

// "a1" .. "j10" (column letter, then row number from Black's side).
std::string SquareName(int size, int sq);
// The square named `text` on a board of `size`, or nullopt.
std::optional<int> ParseSquare(int size, std::string_view text);

// "standard" / "classic".
const char* RuleSetName(RuleSet rules);
std::optional<RuleSet> ParseRuleSet(std::string_view text);
// The rule set and board size in words: "standard 7x7".
std::string GameName(RuleSet rules, int size);
// "black" / "white".
const char* ColorName(Color c);
// A short name of the pending decision, e.g. "choose_shooter".
const char* DecisionName(Decision d);

// The notation of a legal full turn played from `before`.
std::string TurnToString(const Position& before, const Turn& turn);

// Every legal full turn of `pos` in notation, sorted as byte strings (what `veletas moves`
// prints); empty when the game is over.
std::vector<std::string> SortedMoveNames(const Position& pos);

// Parses one move in notation and checks it against the rules in `before`. The error
// names the reason (e.g. `c9 is not reachable from c3 (stone on c6)`), never the move
// number.
util::Result<Turn> ParseTurn(const Position& before, std::string_view text);

// A game record replayed from the empty board.
struct Game {
  Position start;
  Position final;
  std::vector<Turn> turns;
  std::vector<Position> before;  // before[i] = the position before turns[i]
};

// Parses a record: moves separated by white space. Errors read
// `move 7 "c3-c9/c1": c9 is not reachable from c3 (stone on c6)`.
util::Result<Game> PlayRecord(RuleSet rules, int size, std::string_view record);

// The whole record of `game` in notation (moves separated by single spaces).
std::string RecordToString(const Game& game);

// Text diagram: one line per row, top row first, with row numbers and a file line.
// Squares: '.' empty, 'x' black stone, 'o' white stone, 'S' unclaimed shooter,
// 'X' shooter claimed by Black, 'O' shooter claimed by White.
std::string Diagram(const Position& pos);
// The rows of the board in the same alphabet without labels, top row first.
std::vector<std::string> BoardRows(const Position& pos);

// A play-phase position from rows in the diagram alphabet (top row first; spaces are
// ignored; the number of rows is the size). `to_move` chooses a shooter next.
util::Result<Position> PositionFromDiagram(RuleSet rules, std::string_view rows, Color to_move);

}  // namespace veletas::rules
