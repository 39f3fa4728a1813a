// Test support for hostile arena results: legal games that player A won, for chosen indices of
// a match, as a worker could post them without playing its task.
#pragma once

#include <map>
#include <vector>

#include "arena/arena.h"

namespace veletas::cluster::testing {

// A legal game won by A (two random players) for each of `indices` of a match of `rules` on a
// board of `size`, played with `config` and arena seeds from 1 on until every index has one
// (an index with no such game in 1,000 seeds is left out).
inline std::vector<arena::ArenaGame> ForgedWins(const std::vector<int>& indices,
                                                rules::RuleSet rules, int size,
                                                arena::ArenaConfig config) {
  std::map<int, arena::ArenaGame> forged;
  arena::ArenaPlayer r1, r2;
  r1.name = "x";
  r2.name = "y";
  for (uint64_t seed = 1; seed < 1000 && forged.size() < indices.size(); ++seed) {
    config.seed = seed;
    arena::Arena arena(r1, r2, rules, size, config);
    for (const arena::ArenaGame& g : arena.PlayGames(indices)) {
      if (g.a_won && !forged.count(g.index)) forged[g.index] = g;
    }
  }
  std::vector<arena::ArenaGame> out;
  for (const auto& [index, g] : forged) out.push_back(g);
  return out;
}

}  // namespace veletas::cluster::testing
