// `veletas play`: a game against the engine in the terminal (or through a pipe); the session
// itself is play::PlayInTerminal (play/terminal_game.h).
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "cli/board_size.h"
#include "cli/interactive_player.h"
#include "play/terminal_game.h"

namespace veletas::app {
namespace {

struct PlayOptions {
  cli::PlayerArgs player;
  std::string human = "first";
  std::string record_file;
};

int RunPlay(const PlayOptions& o) {
  cli::PlayerArgs args = o.player;
  if (cli::ShouldAskBoardSize(args, ::isatty(STDIN_FILENO) == 1)) {
    const rules::RuleSet rules = ResolveGame(args.config.game).rules;
    args.config.game.size = cli::AskBoardSize(cli::BoardChoices(rules), std::cin, std::cout);
  }
  auto player = cli::MakeInteractivePlayer(args, OpenPlayNetwork);
  if (!player) return UsageError("play", player.error());
  if (!player.value()->notice.empty()) {
    std::cerr << "veletas play: " << player.value()->notice << "\n";
  }
  const int human = o.human == "first" || o.human == "black" ? 0 : 1;
  const play::TerminalGameSetup setup =
      cli::MakeTerminalSetup(*player.value(), human, o.record_file);
  play::PlayInTerminal(setup, std::cin, std::cout);
  return 0;
}

CommandRun SetupPlay(CLI::App& cmd) {
  auto o = std::make_shared<PlayOptions>();
  cli::AddPlayerOptions(cmd, o->player, /*allow_random=*/true);
  cmd.add_option("--human", o->human, "your seat: first or second player, or a colour")
      ->check(CLI::IsMember({"first", "second", "black", "white"}));
  cmd.add_option("--record", o->record_file, "file the game record is saved to after every move")
      ->type_name("FILE");
  return [o] { return RunPlay(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(play, "play",
                    "play against the engine in the terminal (moves in notation; type help)",
                    SetupPlay);

}  // namespace veletas::app
