// The `veletas` command-line app: one CLI11 subcommand per registered command (app/cmd_*.cpp
// declare their options next to the command); parses the command line, then runs the command.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "app/command.h"
#include "util/host.h"

namespace veletas::app {

std::vector<Command>& Commands() {
  static std::vector<Command> commands;
  return commands;
}

namespace {

// A registered command with its CLI11 subcommand and what runs it.
struct Entry {
  const Command* command;
  CLI::App* cli;
  CommandRun run;
};

// Builds the app: every command's subcommand with its options.
std::vector<Entry> DeclareCommands(CLI::App& app) {
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", VELETAS_VERSION);
  app.require_subcommand(1);
  std::vector<Entry> entries;
  for (const Command& c : Commands()) {
    CLI::App* cli = app.add_subcommand(c.name, c.summary);
    entries.push_back(Entry{&c, cli, c.setup(*cli)});
  }
  // After the subcommands, which would inherit it.
  app.footer(
      "veletas COMMAND --help lists the options of COMMAND, their types, ranges and defaults.\n");
  return entries;
}

const Entry* Find(const std::vector<Entry>& entries, const std::string& name) {
  for (const Entry& e : entries) {
    if (name == e.command->name) return &e;
  }
  return nullptr;
}

// Runs the parsed command. Commands report errors as values; an exception that still escapes
// (a library's, e.g. out of memory) ends the command with its message instead of a crash.
int RunParsed(const Entry& e) {
  try {
    return e.run();
  } catch (const std::exception& ex) {
    std::cerr << "veletas " << e.command->name << ": " << ex.what() << "\n";
    return 1;
  }
}

int Main(int argc, char** argv) {
  CLI::App app("veletas: Veletas Zero, an AlphaZero-style engine for the game of Veletas",
               "veletas");
  const std::vector<Entry> entries = DeclareCommands(app);
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc < 2) {
    std::cerr << app.help();
    return 2;
  }
  if (first == "help") {  // `veletas help [COMMAND]`
    const Entry* e = argc > 2 ? Find(entries, argv[2]) : nullptr;
    if (argc > 2 && !e) {
      std::cerr << "veletas: unknown command \"" << argv[2] << "\" (see veletas --help)\n";
      return 2;
    }
    std::cout << (e ? e->cli->help("veletas") : app.help());
    return 0;
  }
  const Entry* named = Find(entries, first);
  if (!named && first.rfind("-", 0) != 0) {
    std::cerr << "veletas: unknown command \"" << first << "\" (see veletas --help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    // Usage errors (unknown option, missing required option, value out of range) exit 2.
    const std::string who = named ? std::string("veletas ") + named->command->name : "veletas";
    std::cerr << who << ": " << error.what() << " (see " << who << " --help)\n";
    return 2;
  }
  for (const Entry& e : entries) {
    if (e.cli->parsed()) return RunParsed(e);
  }
  return 2;  // unreachable: CLI11 requires one command
}

}  // namespace
}  // namespace veletas::app

int main(int argc, char** argv) {
  veletas::util::UsePassiveOpenMpWaiting(argv);
  return veletas::app::Main(argc, argv);
}
