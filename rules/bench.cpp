#include "rules/bench.h"

#include <fmt/format.h>
#include <string>

#include "rules/notation.h"
#include "rules/turns.h"
#include "util/byte_io.h"
#include "util/checksum.h"
#include "util/clock.h"
#include "util/random.h"

namespace veletas::rules {

namespace {

constexpr BenchPerft kPerfts[] = {
    {RuleSet::kStandard, 7, "e3/e4 b4,b6/a4", 3},
    {RuleSet::kStandard, 9, "c8,h4/g8 d6,g6,h2/d8", 2},
    {RuleSet::kStandard, 10, "b2,b4,f4/d7 c3,e4,g7,g8/g4", 2},
    {RuleSet::kClassic, 7, "c7 a4,g1", 3},
    {RuleSet::kClassic, 9, "g6,i7 b9,d8,f3", 2},
    {RuleSet::kClassic, 10, "a5,f5,h4 d5,d8,g1,i10", 2},
};

}  // namespace

std::span<const BenchPerft> BenchPerfts() { return kPerfts; }

uint64_t MixSignature(uint64_t signature, uint64_t value) {
  util::Writer w;
  w.U64(signature);
  w.U64(value);
  return util::Checksum64(w.str());
}

uint64_t PlayBenchGames(RuleSet rules, int size, long long games, uint64_t* signature) {
  util::Rng rng(0xBE7C4 + size * 2 + static_cast<int>(rules));
  uint64_t turns = 0;
  for (long long g = 0; g < games; ++g) {
    Position p = Position::Initial(rules, size);
    while (!p.IsTerminal()) ApplyTurn(p, RandomTurn(p, rng));
    turns += p.TurnsPlayed();
    *signature = MixSignature(*signature, p.Hash());
  }
  return turns;
}

util::Result<uint64_t> BenchSignature(long long games, std::ostream* report) {
  std::ostream null(nullptr);  // discards
  std::ostream& out = report != nullptr ? *report : null;
  uint64_t signature = 0;
  out << fmt::format("{:<28} {:>14} {:>10} {:>16}\n", "perft", "sequences", "seconds",
                     "sequences/s");
  for (const BenchPerft& c : BenchPerfts()) {
    auto game = PlayRecord(c.rules, c.size, c.record);
    if (!game) return util::Error{game.error()};
    const auto start = util::SteadyClock::now();
    const uint64_t n = Perft(game.value().final, c.depth);
    const double secs = util::SecondsSince(start);
    signature = MixSignature(signature, n);
    const std::string name =
        fmt::format("{} {}x{} depth {}", RuleSetName(c.rules), c.size, c.size, c.depth);
    out << fmt::format("{:<28} {:14} {:10.3f} {:16.0f}\n", name, n, secs, n / secs);
  }
  out << fmt::format("\n{:<28} {:>8} {:>10} {:>12} {:>14}\n", "random games (1 thread)", "games",
                     "seconds", "games/s", "turns/s");
  for (RuleSet rules : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      const auto start = util::SteadyClock::now();
      const uint64_t turns = PlayBenchGames(rules, size, games, &signature);
      const double secs = util::SecondsSince(start);
      const std::string name = fmt::format("{} {}x{}", RuleSetName(rules), size, size);
      out << fmt::format("{:<28} {:8} {:10.3f} {:12.0f} {:14.0f}\n", name, games, secs,
                         games / secs, turns / secs);
    }
  }
  out << fmt::format("\nbench signature: {}\n", signature);
  return signature;
}

}  // namespace veletas::rules
