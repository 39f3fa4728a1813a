// `veletas play`: a game against the engine in the terminal (or through a pipe); the session
// itself is play::PlayInTerminal (play/terminal_game.h).
#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/interactive_player.h"
#include "play/terminal_game.h"

namespace veletas::app {
namespace {

struct PlayOptions {
  PlayerArgs player;
  std::string human = "first";
  std::string record_file;
};

int RunPlay(const PlayOptions& o) {
  auto player = MakeInteractivePlayer(o.player);
  if (!player) return UsageError("play", player.error());
  if (!player.value()->notice.empty()) {
    std::cerr << "veletas play: " << player.value()->notice << "\n";
  }
  InteractivePlayer& b = *player.value();
  play::TerminalGameSetup setup;
  setup.rules = b.rules;
  setup.size = b.size;
  setup.human = o.human == "first" || o.human == "black" ? 0 : 1;
  setup.engine = b.searcher.get();  // null for --random
  setup.engine_visits = b.visits;
  setup.seed = b.seed;
  setup.engine_description = b.description;
  setup.record_file = o.record_file;
  // Hints come from the engine's own searcher (against --random: UCT, as play/ sets it up).
  setup.adviser = b.searcher.get();
  setup.hint_visits = b.visits;
  play::PlayInTerminal(setup, std::cin, std::cout);
  return 0;
}

CommandRun SetupPlay(CLI::App& cmd) {
  auto o = std::make_shared<PlayOptions>();
  AddPlayerOptions(cmd, o->player, /*allow_random=*/true);
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
