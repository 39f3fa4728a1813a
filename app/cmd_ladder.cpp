// `veletas ladder --run DIR --model CKPT [--previous CKPT,...] [--config FILE]`: one round of
// the rating ladder (arena/ladder.h) from the command line: the network plays the anchors
// (random, uct:N for the config's arena.ladder.uct_anchors; anchor-vs-anchor matches once
// per run) and the given earlier networks, the matches go to RUN_DIR/matches/, and the
// ladder of the whole run is printed. MODEL and PREVIOUS are checkpoints (named gen_<N>
// from their metadata, played with arena.simulations) or player specs.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "arena/ladder.h"
#include "arena/match_text.h"
#include "arena/player_options.h"
#include "arena/run_ratings.h"
#include "config/config.h"
#include "model/network_pool.h"
#include "rules/notation.h"
#include "util/progress_line.h"

namespace veletas::app {
namespace {

constexpr const char* kCmd = "ladder";

struct LadderArgs {
  std::string run, model;
  std::vector<std::string> previous;
  ConfigArgs config;
  bool json = false;
};

int RunLadder(const LadderArgs& args) {
  auto loaded_config = ConfigFromArgs(args.config);
  if (!loaded_config) return UsageError(kCmd, loaded_config.error());
  const config::Config& config = loaded_config.value();
  const rules::RuleSet rs = config.game.rules;
  const int size = config.game.size;
  const int sims = config.arena.arena.simulations;

  model::NetworkPool models(rs, size, config.model, config.evaluator);
  auto newcomer =
      arena::PlayerOption("model", args.model, sims, PoolNetworks(models), config.search);
  if (!newcomer) return UsageError(kCmd, newcomer.error());
  std::vector<arena::ArenaPlayer> previous;
  for (const std::string& text : args.previous) {
    if (text.empty()) continue;
    auto p = arena::PlayerOption("previous", text, sims, PoolNetworks(models), config.search);
    if (!p) return UsageError(kCmd, p.error());
    previous.push_back(p.value());
  }

  const std::string& run_dir = args.run;
  util::DirectoryLock lock;
  if (util::Status locked = arena::LockRunDirectory(kCmd, run_dir, lock, std::cerr); !locked.ok()) {
    return CommandError(kCmd, locked.error_value());
  }
  const bool json_out = args.json;
  std::ostream& info = json_out ? std::cerr : std::cout;
  info << "ladder round for " << newcomer.value().name << " (" << newcomer.value().spec.ToString()
       << "), " << rules::RuleSetName(rs) << " " << size << "x" << size << "\n";
  std::string current;
  std::unique_ptr<util::ProgressLine> progress;  // one per match
  auto on_progress = [&](const std::string& match, const arena::ArenaProgress& p) {
    if (match != current) {
      if (progress) progress->Done();
      progress = std::make_unique<util::ProgressLine>(match);
      current = match;
    }
    progress->Update(arena::ProgressText(p), p.games_done, p.games_total);
  };
  const auto result = arena::RunLadderRound(run_dir, rs, size, newcomer.value(), previous,
                                            config.arena.arena, config.arena.ladder, on_progress);
  if (progress) progress->Done();
  if (!result) {
    std::cerr << "veletas ladder: " << result.error() << "\n";
    return result.exit_code();
  }
  const arena::LadderRoundResult& r = result.value();
  for (const std::string& s : r.skipped_files) std::cerr << "veletas ladder: skipped " << s << "\n";
  for (const auto& m : r.matches) {
    for (const std::string& note : m.notes) std::cerr << "veletas ladder: " << note << "\n";
  }
  arena::PrintLadderRound(r, run_dir, json_out, std::cout);
  return 0;
}

CommandRun SetupLadder(CLI::App& cmd) {
  auto o = std::make_shared<LadderArgs>();
  Required(cmd.add_option("--run", o->run, "run directory (matches go to matches/)"))
      ->type_name("DIR");
  Required(cmd.add_option("--model", o->model,
                          "the newcomer: a checkpoint (named gen_<N>, played with the config's "
                          "arena.simulations) or a player spec (random, uct:N[:C], mcts:CKPT:N)"))
      ->type_name("CKPT|SPEC");
  cmd.add_option("--previous", o->previous, "earlier players it also meets, as --model")
      ->type_name("CKPT|SPEC,...")
      ->default_str("")
      ->delimiter(',')
      ->allow_extra_args(false);
  AddConfigOptions(cmd, o->config, /*config_required=*/false);
  cmd.add_flag("--json", o->json, "print the round and the ladder as one JSON object");
  return [o] { return RunLadder(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(ladder, "ladder",
                    "rating-ladder round: the model against the anchors and earlier models; "
                    "matches go to RUN_DIR/matches/",
                    SetupLadder);

}  // namespace veletas::app
