// `veletas match --a SPEC --b SPEC --games N ...`: plays a match between two players
// (random, uct:N, mcts:CKPT:N, or with a time per turn uct:Tms, mcts:CKPT:Tms), prints wins, score,
// Elo A - B with its 95% interval and the likelihood of superiority (or one JSON object with
// --json: the match record with "elo"), and saves the match record and the game records into
// OUT/matches/ (default OUT: the current directory), where `veletas ratings OUT` finds them.
// Finished games are journaled as they finish; the same command resumes a match that was killed.
#include <array>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "app/timed_players.h"
#include "arena/arena.h"
#include "arena/arena_journal.h"
#include "arena/arena_record.h"
#include "arena/match_record.h"
#include "arena/match_text.h"
#include "arena/player_options.h"
#include "config/config.h"
#include "model/network_pool.h"
#include "util/atomic_file.h"
#include "util/progress_line.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;
constexpr const char* kCmd = "match";

struct MatchArgs {
  std::string a, b;
  long long games = 0;
  ConfigArgs config;
  bool json = false;
  std::string out = ".";
  std::optional<std::string> name, a_name, b_name;
  std::optional<long long> seed;
  std::optional<int> threads, parallel, opening_turns;
};

int RunMatch(const MatchArgs& args) {
  auto loaded_config = ConfigFromArgs(args.config);
  if (!loaded_config) return UsageError(kCmd, loaded_config.error());
  const config::Config& config = loaded_config.value();
  arena::ArenaConfig arena_config = config.arena.arena;
  if (args.seed) arena_config.seed = static_cast<uint64_t>(*args.seed);
  arena_config.threads = args.threads.value_or(arena_config.threads);
  arena_config.games_in_parallel = args.parallel.value_or(arena_config.games_in_parallel);
  arena_config.opening_turns = args.opening_turns.value_or(arena_config.opening_turns);
  const rules::RuleSet rs = config.game.rules;
  const int size = config.game.size;

  model::NetworkPool models(rs, size, config.model, config.evaluator);
  auto resolved = arena::MatchPlayers({args.a, args.b}, {args.a_name, args.b_name}, config.search,
                                      PoolNetworks(models), TimedPlayers(config));
  if (!resolved) return CommandError(kCmd, resolved.error_value());
  const std::array<arena::ArenaPlayer, 2>& players = resolved.value();
  // A timed match plays one game per thread unless --parallel says otherwise (ValidateArena
  // refuses more games than threads).
  if ((players[0].spec.Timed() || players[1].spec.Timed()) && !args.parallel) {
    arena_config.games_in_parallel = arena_config.threads;
  }
  if (util::Status e = arena::ValidateArena(players[0], players[1], rs, size, arena_config);
      !e.ok()) {
    return UsageError(kCmd, e.error());
  }
  auto named = arena::NewMatchName(args.out, args.name, players[0].name, players[1].name);
  if (!named) return CommandError(kCmd, named.error_value());
  const std::string& name = named.value();
  const std::string& out_dir = args.out;
  if (util::Status dir = util::CreateDirectories(arena::MatchesDir(out_dir)); !dir.ok()) {
    return CommandError(kCmd, dir.error_value());
  }

  const bool json_out = args.json;
  std::ostream& info = json_out ? std::cerr : std::cout;
  info << arena::MatchHeadline(players[0], players[1], rs, size, args.games, arena_config);
  // Each finished game is journaled at once (OUT/matches/NAME.json.part): a match that is
  // killed loses no finished game, and the same command takes them back and plays the rest.
  arena::JournaledMatch match(out_dir, name, players[0], players[1], rs, size, arena_config);
  std::vector<std::string> notes;
  const util::Status opened = match.Open(notes);
  for (const std::string& note : notes) info << "note: " << note << "\n";
  if (!opened.ok()) return CommandError(kCmd, opened.error_value());
  if (match.Restored() > 0) {
    info << "resuming match " << name << ": " << match.Restored() << " games from "
         << arena::MatchJournalPath(out_dir, name) << "\n";
  }
  util::ProgressLine progress(kCmd);
  const util::Status played =
      match.Play(static_cast<int>(args.games), [&](const arena::ArenaProgress& p) {
        progress.Update(arena::ProgressText(p, players[0].name, players[1].name), p.games_done,
                        p.games_total);
      });
  progress.Done();
  if (!played.ok()) return CommandError(kCmd, played.error_value());
  auto saved = match.Save(std::nullopt);
  // On failure (a full disk) the journal keeps every game: the same command saves them.
  if (!saved) return CommandError(kCmd, saved.error_value());
  const arena::MatchRecord& record = saved.value();
  const arena::Arena& arena = match.arena();
  const std::string match_file = arena::MatchFilePath(out_dir, name);
  const std::string records_file = (fs::path(out_dir) / arena::RecordsFileName(name)).string();
  if (json_out) {
    const nlohmann::json j = arena::MatchResultJson(record, arena, match_file, records_file);
    // Paths are printed as they are: bytes that are not UTF-8 show as U+FFFD.
    std::cout << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << arena::MatchSummary(arena) << "wrote " << match_file << " and " << records_file
              << "\n";
  }
  return 0;
}

CommandRun SetupMatch(CLI::App& cmd) {
  auto o = std::make_shared<MatchArgs>();
  Required(
      cmd.add_option("--a", o->a,
                     "player A: random, uct:N[:C] (N playouts, exploration C) or mcts:CKPT:N[:P] "
                     "(N simulations, inference precision P); Tms in place of N (uct:100ms, "
                     "mcts:CKPT:100ms) gives T ms of wall-clock time per full turn, the player "
                     "searching on one thread (its network too), one game per --threads thread: "
                     "results at a time per turn depend on the machine and its load"))
      ->type_name("SPEC");
  Required(cmd.add_option("--b", o->b, "player B, as --a"))->type_name("SPEC");
  Required(cmd.add_option("--games", o->games, "games; the players alternate seats"))
      ->check(CLI::Range(1LL, 10'000'000LL));
  AddConfigOptions(cmd, o->config, /*config_required=*/false);
  cmd.add_flag("--json", o->json, "print the result as one JSON object");
  cmd.add_option("--out", o->out, "directory whose matches/ gets the match and its games")
      ->type_name("DIR");
  cmd.add_option("--name", o->name,
                 "match name, new in DIR/matches/ (default: A-vs-B); the games of a killed match "
                 "of that name are taken back");
  cmd.add_option("--seed", o->seed, "seed of the games (default: the config's arena.seed)")
      ->check(CLI::Range(0LL, 1LL << 62));
  cmd.add_option("--threads", o->threads,
                 "arena threads (default: the config's); with a time per turn, the games played "
                 "at once")
      ->check(CLI::Range(1, 256));
  cmd.add_option("--parallel", o->parallel,
                 "games in parallel (default: the config's; with a time per turn, --threads, "
                 "and at most that)")
      ->check(CLI::Range(1, 65536));
  cmd.add_option("--opening-turns", o->opening_turns,
                 "random full turns that open each game (default: the config's)")
      ->check(CLI::Range(0, 20));
  cmd.add_option("--a-name", o->a_name, "player A's name in records and ratings");
  cmd.add_option("--b-name", o->b_name, "player B's name in records and ratings");
  return [o] { return RunMatch(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(match, "match",
                    "play a match between two players: wins, Elo A - B with 95% CI, LOS; saves "
                    "the match and its games under DIR/matches/ (a killed match resumes)",
                    SetupMatch);

}  // namespace veletas::app
