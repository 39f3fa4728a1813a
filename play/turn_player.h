// A TurnSearcher as a search::Player: each ChooseTurn is one TurnSearcher::Search under a fixed
// budget (visits or wall-clock time per full turn), on the calling thread only. The arena's
// timed players (`veletas match --a uct:100ms`) are made of it by the app.
#pragma once

#include <memory>
#include <string>

#include "play/turn_search.h"
#include "search/player.h"

namespace veletas::play {

// The player searching each turn with `searcher` under `budget` (a budget with visits > 0 or
// time_ms > 0, TurnSearcher::Search's precondition), named `name` (Player::Name). The turn it
// chooses is TurnAnalysis::best; TurnChoice::simulations is the search's simulations (playouts
// for UCT). A neural searcher's evaluator must outlive the player.
std::unique_ptr<search::Player> MakeTurnSearchPlayer(std::unique_ptr<TurnSearcher> searcher,
                                                     const SearchBudget& budget, std::string name);

}  // namespace veletas::play
