// What `veletas help` prints and the "did you mean" suggestions of the command line's usage
// errors, over a catalogue of commands (cli/command.h).
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace CLI {
class App;
}  // namespace CLI

namespace veletas::cli {

// `veletas help` without a command: the commands of `catalogue` by group (play and analyse,
// train, evaluate, cluster, tools, benchmarks, each heading even when empty; a command in no
// group is left out), then the parts of commands, then how to get a command's options.
std::string GroupedHelp(const std::vector<Command>& catalogue);

// The group of `veletas help` that lists `command` (a command's name, not a part's), or ""
// when none does.
std::string HelpGroupOf(const std::string& command);

// " (did you mean X?)" for the unknown command `word`, X the closest command of `catalogue`
// (or help); "" when none is close.
std::string CommandSuggestion(const std::string& word, const std::vector<Command>& catalogue);

// Suggestions for the unknown options among `args` (the command line) from the options of
// `cli`: " (did you mean --size for --sizee?)", or "" when no unknown option has a close one.
std::string OptionSuggestions(const CLI::App& cli, const std::vector<std::string>& args);

}  // namespace veletas::cli
