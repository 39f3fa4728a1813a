// `veletas bench`: fixed rules-core workloads (perft from fixed positions, seeded uniformly
// random games on every size) with their speeds and one signature number that changes
// whenever the behaviour of the rules core changes.
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "util/byte_io.h"
#include "util/checksum.h"
#include "util/clock.h"

namespace veletas::app {
namespace {

struct PerftCase {
  rules::RuleSet rules;
  int size;
  const char* record;
  int depth;
};

// Openings of the first reference game of each size and rule set.
const PerftCase kPerftCases[] = {
    {rules::RuleSet::kStandard, 7, "e3/e4 b4,b6/a4", 3},
    {rules::RuleSet::kStandard, 9, "c8,h4/g8 d6,g6,h2/d8", 2},
    {rules::RuleSet::kStandard, 10, "b2,b4,f4/d7 c3,e4,g7,g8/g4", 2},
    {rules::RuleSet::kClassic, 7, "c7 a4,g1", 3},
    {rules::RuleSet::kClassic, 9, "g6,i7 b9,d8,f3", 2},
    {rules::RuleSet::kClassic, 10, "a5,f5,h4 d5,d8,g1,i10", 2},
};

// The signature so far with `v` added: the project's checksum of both.
uint64_t Mix(uint64_t h, uint64_t v) {
  util::Writer w;
  w.U64(h);
  w.U64(v);
  return util::Checksum64(w.str());
}

int RunBench(long long games) {
  uint64_t signature = 0;
  fmt::print("{:<28} {:>14} {:>10} {:>16}\n", "perft", "sequences", "seconds", "sequences/s");
  for (const PerftCase& c : kPerftCases) {
    auto game = rules::PlayRecord(c.rules, c.size, c.record);
    if (!game) {
      fmt::print(stderr, "bench: {}\n", game.error());
      return 1;
    }
    const auto start = util::SteadyClock::now();
    const uint64_t n = rules::Perft(game.value().final, c.depth);
    const double secs = util::SecondsSince(start);
    signature = Mix(signature, n);
    const std::string name =
        fmt::format("{} {}x{} depth {}", rules::RuleSetName(c.rules), c.size, c.size, c.depth);
    fmt::print("{:<28} {:14} {:10.3f} {:16.0f}\n", name, n, secs, n / secs);
  }
  fmt::print("\n{:<28} {:>8} {:>10} {:>12} {:>14}\n", "random games (1 thread)", "games", "seconds",
             "games/s", "turns/s");
  for (rules::RuleSet rs : {rules::RuleSet::kStandard, rules::RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      util::Rng rng(0xBE7C4 + size * 2 + static_cast<int>(rs));
      uint64_t turns = 0;
      const auto start = util::SteadyClock::now();
      for (long long g = 0; g < games; ++g) {
        rules::Position p = rules::Position::Initial(rs, size);
        while (!p.IsTerminal()) rules::ApplyTurn(p, rules::RandomTurn(p, rng));
        turns += p.TurnsPlayed();
        signature = Mix(signature, p.Hash());
      }
      const double secs = util::SecondsSince(start);
      const std::string name = fmt::format("{} {}x{}", rules::RuleSetName(rs), size, size);
      fmt::print("{:<28} {:8} {:10.3f} {:12.0f} {:14.0f}\n", name, games, secs, games / secs,
                 turns / secs);
    }
  }
  fmt::print("\nbench signature: {}\n", signature);
  return 0;
}

CommandRun SetupBench(CLI::App& cmd) {
  auto games = std::make_shared<long long>(2000);
  cmd.add_option("--games", *games, "random games per rule set and board size")
      ->check(CLI::Range(1LL, 10'000'000LL));
  return [games] { return RunBench(*games); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench, "bench",
                    "rules-core speed: perft and random games per size, with a signature number",
                    SetupBench);

}  // namespace veletas::app
