// `veletas engine`: the engine protocol (docs/ENGINE_PROTOCOL.md) on stdin/stdout for GUIs
// and game-site bots. The protocol itself is play/engine_protocol.h.
#include <iostream>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "cli/interactive_player.h"
#include "play/engine_protocol.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

int RunEngine(const cli::PlayerArgs& args) {
  auto player = cli::MakeInteractivePlayer(args, OpenPlayNetwork);
  if (!player) return UsageError("engine", player.error());
  if (!player.value()->notice.empty()) {
    std::cerr << "veletas engine: " << player.value()->notice << "\n";
  }
  cli::InteractivePlayer& b = *player.value();
  play::EngineProtocol engine(cli::MakeEngineSetup(b));
  std::cerr << "veletas engine: " << b.description << "; " << rules::RuleSetName(b.rules) << " "
            << b.size << "x" << b.size << "; see docs/ENGINE_PROTOCOL.md\n";
  play::ServeEngine(engine, std::cin, std::cout);
  return 0;
}

CommandRun SetupEngine(CLI::App& cmd) {
  auto o = std::make_shared<cli::PlayerArgs>();
  cli::AddPlayerOptions(cmd, *o, /*allow_random=*/false);
  return [o] { return RunEngine(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(engine, "engine",
                    "speak the engine protocol (docs/ENGINE_PROTOCOL.md) on stdin/stdout",
                    SetupEngine);

}  // namespace veletas::app
