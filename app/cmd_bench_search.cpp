// `veletas bench-search`: speed of the search layer without a network. Simulations per
// second of PUCT and Gumbel MCTS with a zero-cost evaluator (uniform priors, value 0: the
// tree's own overhead), the memory per tree node, and UCT random-playout speed, on 7x7 and
// 10x10 positions taken from seeded random games (search/search_bench_report.h).
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "rules/notation.h"
#include "search/search_bench_report.h"

namespace veletas::app {
namespace {

struct BenchSearchOptions {
  int simulations = 800, positions = 20, leaves = 8, playouts = 2000;
  std::string rules = "standard";
};

int RunBenchSearch(const BenchSearchOptions& o) {
  search::SearchBenchOptions b;
  b.rules = rules::ParseRuleSet(o.rules).value_or(rules::RuleSet::kStandard);
  b.simulations = o.simulations;
  b.positions = o.positions;
  b.leaves = o.leaves;
  b.playouts = o.playouts;
  search::PrintSearchBench(b);
  return 0;
}

CommandRun SetupBenchSearch(CLI::App& cmd) {
  auto o = std::make_shared<BenchSearchOptions>();
  cmd.add_option("--simulations", o->simulations, "MCTS simulations per search")
      ->check(CLI::Range(1, 1'000'000));
  cmd.add_option("--positions", o->positions, "positions searched per row")
      ->check(CLI::Range(1, 10'000));
  cmd.add_option("--leaves", o->leaves, "leaves collected per evaluator batch")
      ->check(CLI::Range(1, 1024));
  cmd.add_option("--playouts", o->playouts, "UCT playouts per search")
      ->check(CLI::Range(1, 10'000'000));
  cmd.add_option("--rules", o->rules, "rule edition")
      ->check(CLI::IsMember({"standard", "classic"}));
  return [o] { return RunBenchSearch(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench_search, "bench-search",
                    "search speed: MCTS simulations/s with a zero-cost evaluator, bytes per node, "
                    "UCT playouts/s",
                    SetupBenchSearch);

}  // namespace veletas::app
