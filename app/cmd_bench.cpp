// `veletas bench [PART]`: without a part, fixed rules-core workloads (perft from fixed
// positions, seeded uniformly random games on every size) with their speeds and one signature
// number that changes whenever the behaviour of the rules core changes (rules/bench.h). Its
// parts measure the other layers; here the one without a network, which the Torch-free front
// runs too (app/main_front.cpp):
// - `bench search`: the search layer without a network (search/search_bench_report.h): MCTS
//   simulations/s with a zero-cost evaluator, bytes per tree node, UCT playouts/s.
// The others: app/cmd_bench_nn.cpp (nn), cmd_bench_selfplay.cpp (selfplay, spot-check),
// cmd_bench_train.cpp, cmd_bench_cluster.cpp, cmd_bench_clock.cpp.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "rules/bench.h"
#include "rules/notation.h"
#include "search/search_bench_report.h"

namespace veletas::app {
namespace {

CommandRun SetupBench(CLI::App& cmd) {
  auto games = std::make_shared<long long>(rules::kBenchGames);
  cmd.add_option("--games", *games,
                 "random games per rule set and board size (the bench without a PART)")
      ->check(CLI::Range(1LL, 10'000'000LL));
  return [games] {
    auto signature = rules::BenchSignature(*games, &std::cout);
    if (!signature) return CommandError("bench", {signature.error(), util::ErrorKind::kFailure});
    return 0;
  };
}

struct BenchSearchArgs {
  search::SearchBenchOptions bench;
  std::string rules = "standard";
};

CommandRun SetupBenchSearch(CLI::App& cmd) {
  auto o = std::make_shared<BenchSearchArgs>();
  cmd.add_option("--simulations", o->bench.simulations, "MCTS simulations per search")
      ->check(CLI::Range(1, 1'000'000));
  cmd.add_option("--positions", o->bench.positions, "positions searched per row")
      ->check(CLI::Range(1, 10'000));
  cmd.add_option("--leaves", o->bench.leaves, "leaves collected per evaluator batch")
      ->check(CLI::Range(1, 1024));
  cmd.add_option("--playouts", o->bench.playouts, "UCT playouts per search")
      ->check(CLI::Range(1, 10'000'000));
  cmd.add_option("--rules", o->rules, "rule edition")
      ->check(CLI::IsMember({"standard", "classic"}));
  return [o] {
    o->bench.rules = rules::ParseRuleSet(o->rules).value_or(rules::RuleSet::kStandard);
    search::PrintSearchBench(o->bench);
    return 0;
  };
}

}  // namespace

VELETAS_CLI_COMMAND(bench, "bench",
                    "rules-core speed: perft and random games per size, with a signature number; "
                    "its parts measure the other layers (veletas bench --help)",
                    SetupBench);

VELETAS_CLI_PART(bench_search, "bench", "search",
                 "MCTS simulations/s with a zero-cost evaluator, bytes per node, UCT playouts/s",
                 SetupBenchSearch);

}  // namespace veletas::app
