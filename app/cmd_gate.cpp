// `veletas gate --candidate CKPT --best CKPT --run DIR [--config FILE]`: the promotion gate
// (arena/gate.h) from the command line. The candidate plays the best network in batches
// with the config's `arena.gate` settings (SPRT or fixed games) until the gate decides;
// the decision, its evidence and the games are written to RUN_DIR/matches/. CANDIDATE and
// BEST are checkpoints (played as mcts:CKPT:<arena.simulations>) or player specs (random,
// uct:N, mcts:CKPT:N).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "arena/gate.h"
#include "arena/match_text.h"
#include "arena/player_options.h"
#include "config/config.h"
#include "model/network_pool.h"
#include "util/progress_line.h"

namespace veletas::app {
namespace {

constexpr const char* kCmd = "gate";

struct GateArgs {
  std::string candidate, best, run, name;
  ConfigArgs config;
  bool json = false;
};

int RunGate(const GateArgs& args) {
  auto loaded_config = ConfigFromArgs(args.config);
  if (!loaded_config) return UsageError(kCmd, loaded_config.error());
  const config::Config& config = loaded_config.value();
  const rules::RuleSet rs = config.game.rules;
  const int size = config.game.size;

  model::NetworkPool models(rs, size, config.model, config.evaluator);
  arena::ArenaPlayer players[2];
  for (int i = 0; i < 2; ++i) {
    const char* opt = i == 0 ? "candidate" : "best";
    auto p =
        arena::PlayerOption(opt, i == 0 ? args.candidate : args.best,
                            config.arena.arena.simulations, PoolNetworks(models), config.search);
    if (!p) return UsageError(kCmd, p.error());
    players[i] = p.value();
  }
  if (players[0].name == players[1].name) players[0].name += "_candidate";

  const std::string& run_dir = args.run;
  util::DirectoryLock lock;
  if (util::Status locked = arena::LockRunDirectory(kCmd, run_dir, lock, std::cerr); !locked.ok()) {
    return CommandError(kCmd, locked.error_value());
  }
  const std::string& name = args.name;
  const bool json_out = args.json;
  std::ostream& info = json_out ? std::cerr : std::cout;
  info << arena::GateHeadline(players[0], players[1], rs, size, config.arena.gate);
  util::ProgressLine progress(kCmd);
  const auto result =
      arena::RunGate(players[0], players[1], rs, size, config.arena.gate, config.arena.arena,
                     run_dir, name, [&](const arena::ArenaProgress& p) {
                       progress.Update(arena::ProgressText(p, players[0].name, players[1].name),
                                       p.games_done, p.games_total);
                     });
  progress.Done();
  if (!result) {
    std::cerr << "veletas gate: " << result.error() << "\n";
    return result.exit_code();
  }
  const arena::GateResult& r = result.value();
  for (const std::string& note : r.notes) std::cerr << "veletas gate: " << note << "\n";
  if (json_out) {
    std::cout << arena::GateResultJson(r, players[0], players[1]).dump(1) << "\n";
  } else {
    std::cout << arena::GateResultText(r, players[0], players[1]);
  }
  return 0;
}

CommandRun SetupGate(CLI::App& cmd) {
  auto o = std::make_shared<GateArgs>();
  Required(cmd.add_option("--candidate", o->candidate,
                          "the candidate: a checkpoint (played with the config's "
                          "arena.simulations) or a player spec (random, uct:N[:C], mcts:CKPT:N)"))
      ->type_name("CKPT|SPEC");
  Required(cmd.add_option("--best", o->best, "the best player so far, as --candidate"))
      ->type_name("CKPT|SPEC");
  Required(cmd.add_option("--run", o->run, "run directory (the gate's match goes to matches/)"))
      ->type_name("DIR");
  AddConfigOptions(cmd, o->config, /*config_required=*/false);
  cmd.add_option("--name", o->name, "match name (default: from the players)");
  cmd.add_flag("--json", o->json, "print the decision as one JSON object");
  return [o] { return RunGate(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(gate, "gate",
                    "promotion gate: candidate against best with SPRT or fixed games; decision and "
                    "evidence go to RUN_DIR/matches/",
                    SetupGate);

}  // namespace veletas::app
