// The board size of `veletas play` when a new player gives none: in a terminal, the command
// asks for it, listing which sizes have a shipped network, 10x10 on Enter (issue 47).
// Scripts and pipes are not asked: the game stays standard 10x10 unless --size says otherwise.
#pragma once

#include <istream>
#include <ostream>
#include <vector>

#include "cli/interactive_player.h"
#include "rules/position.h"

namespace veletas::cli {

// The size a player gets on Enter.
inline constexpr int kDefaultBoardSize = 10;

// A board size on offer and whether a network is shipped for it.
struct BoardChoice {
  int size = kDefaultBoardSize;
  bool shipped = false;
};

// Every supported size (7, 9, 10) of `rules`, each with whether its shipped network's folder
// exists (model/base/shipped_networks.h; its checks run when the game is set up).
std::vector<BoardChoice> BoardChoices(rules::RuleSet rules);

// Whether `veletas play` with options `args` asks for the board size: only when standard
// input is a terminal (`interactive`) and nothing fixes the game's size: no --size, --config
// or --model.
bool ShouldAskBoardSize(const PlayerArgs& args, bool interactive);

// Asks on `out` for one of `choices` (each listed with whether a network is shipped for it)
// and reads the answer from `in`: "7", "7x7", ...; an empty line or the end of `in` gives
// kDefaultBoardSize. Another answer is told what is expected and asked again. Precondition:
// `choices` lists kDefaultBoardSize.
int AskBoardSize(const std::vector<BoardChoice>& choices, std::istream& in, std::ostream& out);

}  // namespace veletas::cli
