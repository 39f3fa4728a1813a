// The `veletas` command-line app: dispatches to the registered subcommands.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "app/command.h"

namespace veletas::app {

std::vector<Command>& Commands() {
  static std::vector<Command> commands;
  return commands;
}

namespace {

void PrintHelp(std::ostream& out) {
  out << "veletas: Veletas Zero, an AlphaZero-style engine for the game of Veletas\n\n"
      << "usage: veletas COMMAND [options]\n\ncommands:\n";
  for (const Command& c : Commands()) {
    out << "  " << c.name << " " << c.usage << "\n      " << c.summary << "\n";
  }
}

}  // namespace
}  // namespace veletas::app

int main(int argc, char** argv) {
  using veletas::app::Commands;
  if (argc < 2 || std::strcmp(argv[1], "help") == 0 || std::strcmp(argv[1], "--help") == 0) {
    veletas::app::PrintHelp(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  for (const auto& c : Commands()) {
    if (name != c.name) continue;
    // Commands report errors as values; an exception that still escapes (a library's, e.g.
    // out of memory) ends the command with its message instead of a crash.
    try {
      return c.run(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const std::exception& e) {
      std::cerr << "veletas " << name << ": " << e.what() << "\n";
      return 1;
    }
  }
  std::cerr << "veletas: unknown command \"" << name << "\" (see veletas help)\n";
  return 2;
}
