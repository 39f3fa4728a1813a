// The command table: the commands of the `veletas` app (app/cmd_*.cpp) register themselves
// here; RunApp (cli/app.h) builds one CLI11 subcommand per registered command (and one under
// its command per registered part, e.g. `veletas bench nn`), parses the command line and runs
// the one named. Registration happens during static initialisation (single-threaded).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace veletas::cli {

// What a command does once its arguments are parsed: returns the process exit code (0
// success, 1 runtime failure, 2 bad input).
using CommandRun = std::function<int()>;

// Declares a command's options and positionals on its CLI11 subcommand `cmd`, bound to
// storage the returned CommandRun owns, with their types, ranges, choices, defaults and
// whether they are required (CLI11 checks them; usage errors exit 2).
using CommandSetup = CommandRun (*)(CLI::App& cmd);

struct Command {
  const char* name;     // a part's: its name under `parent`
  const char* summary;  // one line: what it does
  CommandSetup setup = nullptr;
  // The command this is a part of (`veletas PARENT NAME`); nullptr: a command of its own. A
  // command with parts runs at most one of them, and its own run when none is named.
  const char* parent = nullptr;
};

// All registered commands and parts, in registration order.
std::vector<Command>& Commands();

struct CommandRegistrar {
  explicit CommandRegistrar(const Command& c) { Commands().push_back(c); }
};

}  // namespace veletas::cli

// Registers command `name` whose options `setup` declares (a CommandSetup).
#define VELETAS_CLI_COMMAND(id, name, summary, setup) \
  static const ::veletas::cli::CommandRegistrar kRegistrar_##id({name, summary, setup})

// Registers part `name` of command `parent` (`veletas PARENT NAME`), whose options `setup`
// declares.
#define VELETAS_CLI_PART(id, parent, name, summary, setup) \
  static const ::veletas::cli::CommandRegistrar kRegistrar_##id({name, summary, setup, parent})
