// The fixed workloads of `veletas bench` and its signature: one number that changes whenever
// the behaviour of the rules core changes (Stockfish's bench). tests/rules/bench_test.cpp
// pins it; a commit that changes it says why.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>

#include "rules/position.h"
#include "util/result.h"

namespace veletas::rules {

// One perft workload: a rule set, a board size, an opening record and a depth.
struct BenchPerft {
  RuleSet rules;
  int size;
  const char* record;
  int depth;
};

// The perft workloads, in the order they enter the signature: the openings of the first
// reference game of each size and rule set.
std::span<const BenchPerft> BenchPerfts();

// The number of random games `veletas bench` plays per rule set and board size by default.
inline constexpr long long kBenchGames = 2000;

// The signature so far with `value` added: the project's checksum of both.
uint64_t MixSignature(uint64_t signature, uint64_t value);

// Plays `games` seeded uniformly random games of `rules` on `size`, mixing each final
// position's hash into `*signature`; returns the turns played in all.
uint64_t PlayBenchGames(RuleSet rules, int size, long long games, uint64_t* signature);

// The signature of the whole bench with `games` random games per rule set and size: the
// perft counts of BenchPerfts() in order, then the games of the standard and classic rules on
// 7, 9 and 10; an error when a workload's record does not play. With `report`, what `veletas
// bench` prints goes there as the workloads run: a table of the perft workloads (sequences,
// seconds, sequences/s), one of the random games (games, seconds, games/s, turns/s) and the
// line "bench signature: N".
util::Result<uint64_t> BenchSignature(long long games = kBenchGames,
                                      std::ostream* report = nullptr);

}  // namespace veletas::rules
