// The `veletas` command-line app: one CLI11 subcommand per registered command, and one under
// its command per registered part (app/cmd_*.cpp declare their options next to the command);
// parses the command line, then runs the command or part.
#include "cli/app.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "cli/help.h"

namespace veletas::cli {

std::vector<Command>& Commands() {
  static std::vector<Command> commands;
  return commands;
}

namespace {

// A registered command or part with its CLI11 subcommand and what runs it.
struct Entry {
  std::string name;  // as the command line names it: "bench", "bench nn"
  CLI::App* cli;
  CommandRun run;
};

const Entry* Find(const std::vector<Entry>& entries, const std::string& name) {
  for (const Entry& e : entries) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

// Builds the app: every command's subcommand with its options, then every part's under its
// command.
std::vector<Entry> DeclareCommands(CLI::App& app) {
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", VELETAS_VERSION);
  app.require_subcommand(1);
  std::vector<Entry> entries;
  for (const Command& c : Commands()) {
    if (c.parent != nullptr) continue;
    CLI::App* cli = app.add_subcommand(c.name, c.summary);
    entries.push_back(Entry{c.name, cli, c.setup(*cli)});
  }
  for (const Command& c : Commands()) {
    if (c.parent == nullptr) continue;
    CLI::App* parent = Find(entries, c.parent)->cli;
    parent->require_subcommand(0, 1);
    CLI::App* cli = parent->add_subcommand(c.name, c.summary);
    entries.push_back(Entry{std::string(c.parent) + " " + c.name, cli, c.setup(*cli)});
  }
  return entries;
}

// The command or part that argv[1] (and argv[2]) name, if any.
const Entry* Named(const std::vector<Entry>& entries, int argc, char** argv) {
  const Entry* part = argc > 2 ? Find(entries, std::string(argv[1]) + " " + argv[2]) : nullptr;
  return part != nullptr ? part : Find(entries, argv[1]);
}

// Runs the parsed command. Commands report errors as values; an exception that still escapes
// (a library's, e.g. out of memory) ends the command with its message instead of a crash.
int RunParsed(const Entry& e) {
  try {
    return e.run();
  } catch (const std::exception& ex) {
    std::cerr << "veletas " << e.name << ": " << ex.what() << "\n";
    return 1;
  }
}

// `veletas help [COMMAND [PART]]`: what `veletas COMMAND [PART] --help` prints, or without a
// command the grouped list of commands.
int Help(const std::vector<Entry>& entries, const std::vector<Command>& catalogue, int argc,
         char** argv) {
  if (argc < 3) {
    std::cout << GroupedHelp(catalogue);
    return 0;
  }
  const Entry* e = Named(entries, argc - 1, argv + 1);
  if (!e) {
    std::cerr << "veletas: unknown command \"" << argv[2] << "\""
              << CommandSuggestion(argv[2], catalogue) << " (see veletas help)\n";
    return 2;
  }
  const size_t space = e->name.rfind(' ');  // after a part's command
  std::cout << e->cli->help(space == std::string::npos ? "veletas"
                                                       : "veletas " + e->name.substr(0, space));
  return 0;
}

}  // namespace

int RunApp(int argc, char** argv, const std::vector<Command>& catalogue) {
  CLI::App app("veletas: Veletas Zero, an AlphaZero-style engine for the game of Veletas",
               "veletas");
  const std::vector<Entry> entries = DeclareCommands(app);
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc < 2) {
    std::cerr << GroupedHelp(catalogue);
    return 2;
  }
  if (first == "help") return Help(entries, catalogue, argc, argv);
  if (first == "--help" || first == "-h") {
    std::cout << GroupedHelp(catalogue);
    return 0;
  }
  const Entry* named = Named(entries, argc, argv);
  if (!named && first.rfind("-", 0) != 0) {
    std::cerr << "veletas: unknown command \"" << first << "\""
              << CommandSuggestion(first, catalogue) << " (see veletas help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    // Usage errors (unknown option, missing required option, value out of range) exit 2.
    const std::string who = named ? "veletas " + named->name : "veletas";
    std::string hint;
    if (named)
      hint = OptionSuggestions(*named->cli, std::vector<std::string>(argv + 1, argv + argc));
    std::cerr << who << ": " << error.what() << hint << " (see " << who << " --help)\n";
    return 2;
  }
  // A part before its command, which is parsed too.
  for (auto e = entries.rbegin(); e != entries.rend(); ++e) {
    if (e->cli->parsed()) return RunParsed(*e);
  }
  return 2;  // unreachable: CLI11 requires one command
}

}  // namespace veletas::cli
