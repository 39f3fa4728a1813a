// `veletas ratings RUN_DIR [--json] [--prior-games X]`: the Bradley-Terry rating ladder of
// every player in a run, from all its match records (RUN_DIR/matches/*.json), with `random`
// fixed at Elo 0. Prints a table (or the JSON), writes RUN_DIR/ratings.json and
// RUN_DIR/ratings.png (Elo against generation with 95% intervals; a chart that cannot be
// drawn is a warning, not an error: the JSON is the product).
#include <iostream>
#include <memory>
#include <sstream>

#include "app/cli.h"
#include "app/command.h"
#include "arena/run_ratings.h"
#include "charts/charts.h"

namespace veletas::app {
namespace {

struct RatingsOptions {
  std::string run;
  bool json = false;
  double prior_games = 1.0;
};

int RunRatingsCommand(const RatingsOptions& o) {
  std::ostringstream warnings;
  auto rated = arena::RateRun(o.run, o.prior_games, warnings);
  std::istringstream lines(warnings.str());
  for (std::string line; std::getline(lines, line);)
    std::cerr << "veletas ratings: " << line << "\n";
  if (!rated) {
    std::cerr << "veletas ratings: " << rated.error() << "\n";
    return rated.exit_code();
  }
  const arena::RunRatings& r = rated.value();
  auto drawn = charts::DrawRatingsChart(r.json_path, r.png_path);
  if (!drawn) std::cerr << "veletas ratings: " << drawn.error() << "\n";
  if (o.json) {
    std::cout << r.json.dump(1) << "\n";
    return 0;
  }
  arena::PrintRatings(r, o.prior_games, std::cout);
  std::cout << "\nwrote " << r.json_path;
  if (drawn) std::cout << " and " << r.png_path;
  std::cout << "\n";
  return 0;
}

CommandRun SetupRatings(CLI::App& cmd) {
  auto o = std::make_shared<RatingsOptions>();
  Required(cmd.add_option("RUN_DIR", o->run, "run directory (its matches/*.json are read)"));
  cmd.add_flag("--json", o->json, "print the ratings as JSON");
  cmd.add_option("--prior-games", o->prior_games,
                 "virtual drawn games per pair of players (keeps ratings finite)")
      ->check(CLI::Range(1e-6, 1e6));
  return [o] { return RunRatingsCommand(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(
    ratings, "ratings",
    "rating ladder of a run from its match records (writes ratings.json, ratings.png)",
    SetupRatings);

}  // namespace veletas::app
