// `veletas bench clock`: the engine's time controls over many moves (play/clock_bench.h):
// genmove with both clocks, the real time of each move against what its clock held.
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "cli/interactive_player.h"
#include "play/clock_bench.h"
#include "play/engine_protocol.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

struct BenchClockArgs {
  cli::PlayerArgs player;
  play::ClockBenchOptions bench;
};

int RunBenchClock(const BenchClockArgs& o) {
  auto player = cli::MakeInteractivePlayer(o.player, OpenPlayNetwork);
  if (!player) return UsageError("bench clock", player.error());
  cli::InteractivePlayer& b = *player.value();
  play::EngineProtocol engine(cli::MakeEngineSetup(b));
  std::printf("clock: %s, %s %dx%d, %d moves, %lld ms per side + %lld ms per move\n",
              b.description.c_str(), rules::RuleSetName(b.rules), b.size, b.size, o.bench.moves,
              static_cast<long long>(o.bench.clock_ms),
              static_cast<long long>(o.bench.increment_ms));
  const play::ClockBenchResult r = play::RunClockBench(engine, o.bench);
  std::printf(
      "moves %d  games %d  over time %d  mean move %.1f ms  largest share of the clock %.3f  "
      "most beyond the allotted time %.1f ms  lowest clock left %lld ms\n",
      r.moves, r.games, r.over_time, r.mean_move_ms, r.max_share, r.max_over_allotted_ms,
      static_cast<long long>(r.min_left_ms));
  return 0;
}

CommandRun SetupBenchClock(CLI::App& cmd) {
  auto o = std::make_shared<BenchClockArgs>();
  cli::AddPlayerOptions(cmd, o->player, /*allow_random=*/false);
  cmd.add_option("--moves", o->bench.moves, "genmoves measured")->check(CLI::Range(1, 100000));
  cmd.add_option("--clock", o->bench.clock_ms, "each side's clock at the start of a game")
      ->type_name("MS")
      ->check(CLI::Range(1LL, 100'000'000LL));
  cmd.add_option("--increment", o->bench.increment_ms, "added to a clock after each move")
      ->type_name("MS")
      ->check(CLI::Range(0LL, 100'000'000LL));
  return [o] { return RunBenchClock(*o); };
}

}  // namespace

VELETAS_CLI_PART(bench_clock, "bench", "clock",
                 "time controls: genmove with both clocks over many moves; moves over time "
                 "(never, if the time manager works) and the share of the clock used",
                 SetupBenchClock);

}  // namespace veletas::app
