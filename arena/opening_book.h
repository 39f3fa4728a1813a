// The random openings of a match (arena/arena.h's file comment says how they are drawn).
#pragma once

#include <cstdint>
#include <vector>

#include "rules/position.h"
#include "rules/turns.h"
#include "util/random.h"

namespace veletas::arena {

// The random openings of a match, drawn lazily in pair order (see the file comment).
// Not thread-safe.
class OpeningBook {
 public:
  // Precondition: opening_turns in [0, 20], a supported size.
  OpeningBook(rules::RuleSet rules, int size, int opening_turns, uint64_t seed);
  // The opening turns of pair `pair` (games 2 pair and 2 pair + 1), from the empty board.
  const std::vector<rules::Turn>& Get(int pair);

 private:
  void DrawNext();
  rules::RuleSet rules_;
  int size_;
  int turns_;
  util::Rng rng_;
  std::vector<std::vector<rules::Turn>> openings_;
  std::vector<uint64_t> keys_;  // sorted canonical keys of the openings drawn so far
};

}  // namespace veletas::arena
