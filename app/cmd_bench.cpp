// `veletas bench`: fixed rules-core workloads (perft from fixed positions, seeded uniformly
// random games on every size) with their speeds and one signature number that changes
// whenever the behaviour of the rules core changes (the workloads and the signature:
// rules/bench.h).
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "rules/bench.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "util/clock.h"

namespace veletas::app {
namespace {

int RunBench(long long games) {
  uint64_t signature = 0;
  fmt::print("{:<28} {:>14} {:>10} {:>16}\n", "perft", "sequences", "seconds", "sequences/s");
  for (const rules::BenchPerft& c : rules::BenchPerfts()) {
    auto game = rules::PlayRecord(c.rules, c.size, c.record);
    if (!game) {
      fmt::print(stderr, "bench: {}\n", game.error());
      return 1;
    }
    const auto start = util::SteadyClock::now();
    const uint64_t n = rules::Perft(game.value().final, c.depth);
    const double secs = util::SecondsSince(start);
    signature = rules::MixSignature(signature, n);
    const std::string name =
        fmt::format("{} {}x{} depth {}", rules::RuleSetName(c.rules), c.size, c.size, c.depth);
    fmt::print("{:<28} {:14} {:10.3f} {:16.0f}\n", name, n, secs, n / secs);
  }
  fmt::print("\n{:<28} {:>8} {:>10} {:>12} {:>14}\n", "random games (1 thread)", "games", "seconds",
             "games/s", "turns/s");
  for (rules::RuleSet rs : {rules::RuleSet::kStandard, rules::RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      const auto start = util::SteadyClock::now();
      const uint64_t turns = rules::PlayBenchGames(rs, size, games, &signature);
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
  auto games = std::make_shared<long long>(rules::kBenchGames);
  cmd.add_option("--games", *games, "random games per rule set and board size")
      ->check(CLI::Range(1LL, 10'000'000LL));
  return [games] { return RunBench(*games); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench, "bench",
                    "rules-core speed: perft and random games per size, with a signature number",
                    SetupBench);

}  // namespace veletas::app
