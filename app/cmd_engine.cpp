// `veletas engine`: the engine protocol (docs/ENGINE_PROTOCOL.md) on stdin/stdout for GUIs
// and game-site bots. The protocol itself is app/engine_protocol.h.
#include <iostream>
#include <string>

#include "app/args.h"
#include "app/command.h"
#include "app/search_backend.h"
#include "play/engine_protocol.h"
#include "rules/notation.h"

#ifndef VELETAS_VERSION
#define VELETAS_VERSION "0"
#endif

namespace veletas::app {
namespace {

int RunEngine(const std::vector<std::string>& argv) {
  auto args = ParseArgs(BackendOptionSpecs(/*allow_random=*/false), argv, 0);
  if (!args) return UsageError("engine", args.error());
  auto backend = MakeSearchBackend(args.value());
  if (!backend) return UsageError("engine", backend.error());
  SearchBackend& b = *backend.value();
  play::EngineSetup setup;
  setup.version = VELETAS_VERSION;
  setup.description = b.description;
  setup.rules = b.rules;
  setup.size = b.size;
  setup.fixed_game = b.fixed_game;
  setup.searcher = b.searcher.get();
  setup.visits = b.visits;
  if (b.evaluator) setup.set_threads = [&b](int threads) { return b.SetThreads(threads); };
  play::EngineProtocol engine(std::move(setup));
  std::cerr << "veletas engine: " << b.description << "; " << rules::RuleSetName(b.rules) << " "
            << b.size << "x" << b.size << "; see docs/ENGINE_PROTOCOL.md\n";
  std::string line;
  while (!engine.Finished() && std::getline(std::cin, line)) {
    const std::string response = engine.Handle(line);
    if (!response.empty()) std::cout << response << std::flush;
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(engine, "engine",
                "[--model CKPT | --uct N] [--simulations N] [--config FILE] [--rules ..] "
                "[--size ..] [--threads N] [--seed N]",
                "speak the engine protocol (docs/ENGINE_PROTOCOL.md) on stdin/stdout", RunEngine);

}  // namespace veletas::app
