// Sample files from seeded uniformly random games, for tests and benchmarks of the learner
// (self-play writes the real ones). Torch-free.
#pragma once

#include <cstdint>
#include <string>

#include "data/sample_file.h"
#include "rules/position.h"

namespace veletas::training {

// The samples of `games` random games (rules::RandomTurn), one per sub-decision: the
// policy target is played_weight on the action played plus (1 - played_weight) spread
// uniformly over the legal actions; the outcome is the game's real result for the player
// to move; aux targets give each shooter's real final owner relative to that player
// (shooters are followed through their moves); root_value is a random number in [-1, 1].
// Deterministic in `seed`. Precondition: 0 <= played_weight <= 1.
data::SampleFile RandomGameSamples(rules::RuleSet rules, int size, int games, uint64_t seed,
                                   double played_weight);

// Writes `files` files <dir>/<prefix>_<k>.vzs of RandomGameSamples(..., games_per_file,
// seed + k, played_weight) (dir created if needed). The error names the file.
util::Status WriteRandomSampleFiles(const std::string& dir, const std::string& prefix, int files,
                                    rules::RuleSet rules, int size, int games_per_file,
                                    uint64_t seed, double played_weight);

}  // namespace veletas::training
