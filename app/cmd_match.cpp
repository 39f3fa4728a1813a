// `veletas match --a SPEC --b SPEC --games N ...`: plays a match between two players
// (random, uct:N, mcts:CKPT:N), prints wins, score, Elo A - B with its 95% interval and the
// likelihood of superiority (or one JSON object with --json), and saves the match record
// and the game records into OUT/matches/ (default OUT: the current directory), where
// `veletas ratings OUT` finds them.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/arena_cli.h"
#include "app/arena_models.h"
#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "arena/arena.h"
#include "arena/arena_record.h"
#include "arena/match_record.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;
constexpr const char* kCmd = "match";

// Applies an integer option to `target` when given.
template <class T>
bool IntOption(const ParsedArgs& args, const char* name, long long lo, long long hi, T& target,
               std::string& error) {
  if (!args.Has(name)) return true;
  auto v = args.Int(name, 0, lo, hi);
  if (!v) {
    error = v.error();
    return false;
  }
  target = static_cast<T>(v.value());
  return true;
}

int RunMatch(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"a", true},
                           {"b", true},
                           {"games", true},
                           {"size", true},
                           {"rules", true},
                           {"config", true},
                           {"json", false},
                           {"out", true},
                           {"name", true},
                           {"seed", true},
                           {"threads", true},
                           {"parallel", true},
                           {"opening-turns", true},
                           {"a-name", true},
                           {"b-name", true}},
                          argv, 0);
  if (!parsed) return UsageError(kCmd, parsed.error());
  const ParsedArgs& args = parsed.value();
  if (!args.Has("a") || !args.Has("b") || !args.Has("games")) {
    return UsageError(kCmd, "expected --a SPEC --b SPEC --games N");
  }
  arena::PlayerSpec specs[2];
  for (int i = 0; i < 2; ++i) {
    const char* opt = i == 0 ? "a" : "b";
    auto spec = arena::ParsePlayerSpec(*args.Value(opt));
    if (!spec) return UsageError(kCmd, std::string("--") + opt + ": " + spec.error());
    specs[i] = spec.value();
  }
  auto games = args.Int("games", 0, 1, 10'000'000);
  if (!games) return UsageError(kCmd, games.error());

  auto loaded_config = ConfigFromArgs(args);
  if (!loaded_config) return UsageError(kCmd, loaded_config.error());
  const Config& config = loaded_config.value();
  arena::ArenaConfig arena_config = config.arena.arena;
  std::string error;
  if (!IntOption(args, "seed", 0, 1LL << 62, arena_config.seed, error) ||
      !IntOption(args, "threads", 1, 256, arena_config.threads, error) ||
      !IntOption(args, "parallel", 1, 65536, arena_config.games_in_parallel, error) ||
      !IntOption(args, "opening-turns", 0, 20, arena_config.opening_turns, error)) {
    return UsageError(kCmd, error);
  }
  const rules::RuleSet rs = config.game.rules;
  const int size = config.game.size;

  ArenaModels models(rs, size, config.model, config.evaluator);
  arena::ArenaPlayer players[2];
  for (int i = 0; i < 2; ++i) {
    auto p = ResolvePlayer(specs[i], models, config.search);
    if (!p) return UsageError(kCmd, std::string(i == 0 ? "--a: " : "--b: ") + p.error());
    players[i] = p.value();
    if (const auto name = args.Value(i == 0 ? "a-name" : "b-name")) players[i].name = *name;
  }
  if (players[0].name == players[1].name) {
    if (args.Has("a-name") && args.Has("b-name")) {
      return UsageError(kCmd, "--a-name and --b-name are both \"" + players[0].name + "\"");
    }
    if (!args.Has("a-name")) players[0].name += "_a";
    if (!args.Has("b-name")) players[1].name += "_b";
  }
  for (const arena::ArenaPlayer& p : players) {
    if (std::string e = arena::ValidateMatchName(p.name); !e.empty()) {
      return UsageError(kCmd, "player name: " + e);
    }
  }
  if (std::string e = arena::ValidateArena(players[0], players[1], rs, size, arena_config);
      !e.empty()) {
    return UsageError(kCmd, e);
  }

  // Where the files go: OUT/matches/NAME.json and NAME.records.txt. A default name gets a
  // numeric suffix rather than overwrite an earlier match; an explicit one must be new.
  const std::string out_dir = args.Value("out").value_or(".");
  std::string name;
  if (const auto n = args.Value("name")) {
    name = *n;
    if (std::string e = arena::ValidateMatchName(name); !e.empty()) {
      return UsageError(kCmd, "--name: " + e);
    }
    std::error_code ec;
    if (fs::exists(arena::MatchFilePath(out_dir, name), ec)) {
      return UsageError(
          kCmd, arena::MatchFilePath(out_dir, name) + " exists; choose another --name or --out");
    }
  } else {
    const std::string base = arena::MakeMatchName("", players[0].name, players[1].name);
    name = base;
    std::error_code ec;
    for (int k = 2; fs::exists(arena::MatchFilePath(out_dir, name), ec); ++k) {
      name = base + "-" + std::to_string(k);
    }
  }

  const bool json_out = args.Has("json");
  std::ostream& info = json_out ? std::cerr : std::cout;
  info << players[0].name << " (" << players[0].spec.ToString() << ") vs " << players[1].name
       << " (" << players[1].spec.ToString() << "), " << rules::RuleSetName(rs) << " " << size
       << "x" << size << ", " << games.value() << " games, " << arena_config.games_in_parallel
       << " in parallel, " << arena_config.threads << " threads, seed " << arena_config.seed
       << "\n";
  const std::string started = arena::UtcTimestamp();
  arena::Arena arena(players[0], players[1], rs, size, arena_config);
  ProgressLine progress(kCmd);
  try {
    arena.Play(static_cast<int>(games.value()), [&](const arena::ArenaProgress& p) {
      progress.Update(p, players[0].name, players[1].name);
    });
  } catch (const std::exception& e) {
    progress.Done();
    std::cerr << "veletas match: " << e.what() << "\n";
    return 1;
  }
  progress.Done();
  const arena::MatchRecord record =
      arena::MakeMatchRecord(name, arena, std::nullopt, started, arena::UtcTimestamp());
  if (util::Status saved = arena::SaveMatch(out_dir, record, arena.Games()); !saved.ok()) {
    std::cerr << "veletas match: " << saved.error() << "\n";
    return saved.exit_code();
  }
  const std::string match_file = arena::MatchFilePath(out_dir, name);
  const std::string records_file = (fs::path(out_dir) / arena::RecordsFileName(name)).string();
  if (json_out) {
    nlohmann::json j = arena::MatchRecordToJson(record);
    j["match_file"] = match_file;
    j["records_file"] = records_file;
    j["seconds"] = arena.Stats().seconds;
    j["turns"] = arena.Stats().turns;
    j["evaluations"] = arena.Stats().evaluations;
    j["evaluate_calls"] = arena.Stats().evaluate_calls;
    std::cout << j.dump(1) << "\n";
  } else {
    std::cout << MatchSummary(arena) << "wrote " << match_file << " and " << records_file << "\n";
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(match, "match",
                "--a SPEC --b SPEC --games N [--size N] [--rules R] [--config FILE] [--json] "
                "[--out DIR] [--name NAME] [--seed S] [--threads T] [--parallel P] "
                "[--opening-turns K] [--a-name X] [--b-name X]   (SPEC: random, uct:N, "
                "mcts:CKPT:N)",
                "play a match between two players: wins, Elo A - B with 95% CI, LOS; saves "
                "the match and its games under DIR/matches/",
                RunMatch);

}  // namespace veletas::app
