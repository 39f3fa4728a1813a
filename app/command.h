// Subcommands of the `veletas` app register themselves here; main() dispatches on the
// first argument. Registration happens during static initialisation (single-threaded).
#pragma once

#include <string>
#include <vector>

namespace veletas::app {

// A subcommand: receives the arguments after its name; returns the process exit code
// (0 success, 1 runtime failure, 2 bad input or usage).
using CommandFn = int (*)(const std::vector<std::string>& args);

struct Command {
  const char* name;
  const char* usage;    // one line: the argument synopsis
  const char* summary;  // one line: what it does
  CommandFn run;
};

// All registered commands, in registration order.
std::vector<Command>& Commands();

struct CommandRegistrar {
  explicit CommandRegistrar(const Command& c) { Commands().push_back(c); }
};

}  // namespace veletas::app

#define VELETAS_COMMAND(id, name, usage, summary, fn) \
  static const ::veletas::app::CommandRegistrar kRegistrar_##id({name, usage, summary, fn})
