// Helpers for tests of the rules core: positions from diagrams, square lists, turn lists.
// Failures throw std::runtime_error, which GoogleTest reports as a failed test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/bitboard.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "rules/turns.h"

namespace veletas::testing {

// The play-phase position of diagram `rows` (see rules::PositionFromDiagram). Throws on a
// malformed diagram.
rules::Position FromDiagram(rules::RuleSet rules, std::string_view rows,
                            rules::Color to_move = rules::Color::kBlack);

// A size x size diagram holding `fragment` (rows top first, its lower-left corner on a1) and
// the rest of the board's shooters as unclaimed shooters on the top two rows, from the right,
// two columns apart. The fragment must leave the top row and the one below it free (10x10:
// rows 1-8, 9x9: 1-7, 7x7: 1-5) so the added shooters are never trapped. Throws if the
// fragment is too large or holds too many shooters.
std::string PaddedDiagram(int size, std::string_view fragment);

// The square named `name` on a board of `size`; throws if there is none.
int Sq(int size, std::string_view name);
// The squares named in `names` (separated by spaces); throws on a bad name.
rules::Bitboard Squares(int size, std::string_view names);
// The names of the squares of `b`, in square order, separated by single spaces.
std::string Names(int size, rules::Bitboard b);
// Normalises a space-separated list of square names to square order (for comparisons with
// Names(), so that expected sets can be written in any order).
std::string Sorted(int size, std::string_view names);

// The legal full turns of `pos` in notation, sorted as byte strings.
std::vector<std::string> TurnStrings(const rules::Position& pos);
// True when the turn written `text` is legal in `pos` (parses and checks it).
bool IsLegalTurn(const rules::Position& pos, std::string_view text);
// The error of the turn written `text` ("" when it is legal).
std::string TurnError(const rules::Position& pos, std::string_view text);
// Plays the turn written `text`; throws if it is not legal.
void Play(rules::Position& pos, std::string_view text);
// The position after replaying `record`; throws if it is not legal.
rules::Position AfterRecord(rules::RuleSet rules, int size, std::string_view record);

}  // namespace veletas::testing
