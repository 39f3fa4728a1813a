// A game against the engine in a terminal (or through a pipe), as `veletas play` runs it: the
// board is shown after every turn; the human types moves in notation or a command (hint,
// undo, save FILE, record, board, help, quit). The engine is a TurnSearcher, or uniformly
// random turns.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "play/turn_search.h"
#include "rules/position.h"

namespace veletas::play {

// The playouts of a hint without an adviser.
inline constexpr int kRandomHintPlayouts = 1000;

struct TerminalGameSetup {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 10;  // precondition: rules::IsSupportedSize(size)
  int human = 0;  // the human's seat: 0 first player, 1 second
  // The engine's searcher and its budget (visits per turn); null: uniformly random turns
  // drawn with `seed`.
  TurnSearcher* engine = nullptr;
  int engine_visits = 0;
  uint64_t seed = 0;
  std::string engine_description;  // e.g. "uct(1000)", shown when the game starts
  // The searcher of hints and its visits; null (e.g. against a random engine): UCT with
  // random playouts, kRandomHintPlayouts per turn, seeded from `seed`.
  TurnSearcher* adviser = nullptr;
  int hint_visits = 0;
  // The game record is written (atomically) here after every turn and at the end; "": not.
  std::string record_file;
};

// Plays one game from the empty board, reading the human's lines from `in` and writing to
// `out`, until the game ends, the human quits or `in` ends. Bad input (an illegal move, an
// unknown word) is answered and asked again. Not thread-safe for one stream pair.
void PlayInTerminal(const TerminalGameSetup& setup, std::istream& in, std::ostream& out);

}  // namespace veletas::play
