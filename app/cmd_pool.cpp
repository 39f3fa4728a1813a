// `veletas pool MATCH.json... [--json]`: one result from several match files of the same two
// players (arena/match_pool.h), e.g. a 200-game match played as 10 parts of 20 games with
// seeds 1 to 10: wins and Elo A - B with its 95% interval over all the games. Parts of other
// players, rules or board size, the same match twice, or two parts with the same games (the
// same seed) are bad input (exit 2, naming the file).
#include <iostream>
#include <memory>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "arena/match_pool.h"

namespace veletas::app {
namespace {

constexpr const char* kCmd = "pool";

struct PoolOptions {
  std::vector<std::string> files;
  bool json = false;
};

int RunPool(const PoolOptions& o) {
  auto parts = arena::ReadMatchParts(o.files);
  if (!parts) return CommandError(kCmd, parts.error_value());
  const std::vector<arena::MatchRecord>& matches = parts.value().matches;
  auto pooled = arena::PoolMatches(matches, o.files, parts.value().records);
  if (!pooled) return CommandError(kCmd, pooled.error_value());
  if (o.json) {
    std::cout << arena::PooledMatchJson(pooled.value(), matches)
                     .dump(1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    std::cout << arena::PooledMatchText(pooled.value(), matches);
  }
  return 0;
}

CommandRun SetupPool(CLI::App& cmd) {
  auto o = std::make_shared<PoolOptions>();
  Required(cmd.add_option("MATCH", o->files,
                          "match files (DIR/matches/NAME.json) of the same two players"))
      ->type_name("FILE...");
  cmd.add_flag("--json", o->json, "print the pooled result as one JSON object");
  return [o] { return RunPool(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(pool, "pool",
                    "one result from several match files of the same two players (parts of a "
                    "long match): wins, Elo A - B with 95% CI",
                    SetupPool);

}  // namespace veletas::app
