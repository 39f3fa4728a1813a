// Options shared by several commands, declared on a command's CLI11 subcommand (each
// command declares its own options next to it, in app/cmd_*.cpp). CLI11 checks types,
// ranges, choices and required options, and `veletas COMMAND --help` lists them with their
// defaults; a command's run function only sees parsed, in-range values.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

#include "config/config.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::cli {

// Marks `option` required; its (meaningless) default is left out of --help.
CLI::Option* Required(CLI::Option* option);

// --rules and --size, unset unless given.
struct GameArgs {
  std::optional<std::string> rules;  // standard or classic
  std::optional<int> size;           // 7, 9 or 10
};
// Declares --rules and --size on `cmd`; `fallback` says in --help what applies when they are
// absent (e.g. "standard 10x10" or "the config's").
void AddGameOptions(CLI::App& cmd, GameArgs& game, const std::string& fallback);

// The game of `game` over `base` (standard 10x10 when not given).
config::GameConfig ResolveGame(const GameArgs& game,
                               config::GameConfig base = {rules::RuleSet::kStandard, 10});

// A CLI11 check of an option's value by `check` (e.g. a name or URL parser of a layer): its
// error message becomes the usage error, which CLI11 prefixes with the option's name.
CLI::Validator StatusCheck(const std::string& description,
                           std::function<util::Status(const std::string&)> check);

// Declares the required --config FILE; `help` says which of its sections apply.
CLI::Option* AddRequiredConfig(CLI::App& cmd, std::string& path, const std::string& help);

// --config FILE with --rules and --size over it.
struct ConfigArgs {
  std::optional<std::string> config;
  GameArgs game;
  std::optional<std::string> precision;  // --precision over model.inference_precision
};
// Declares --config (required when `config_required`), --rules, --size and --precision.
void AddConfigOptions(CLI::App& cmd, ConfigArgs& args, bool config_required);

// The config file when given (else the defaults on a 10x10 board), then --rules and --size
// over it. The error names the file and line.
util::Result<config::Config> ConfigFromArgs(const ConfigArgs& args);

// Prints "veletas <command>: <message>" to stderr and returns 2.
int UsageError(const std::string& command, const std::string& message);

// Prints "veletas <command>: <error>" to stderr and returns the error's exit code (2 for
// bad input, 1 for a failure).
int CommandError(const std::string& command, const util::Error& error);

// The RECORD argument: `record` if given, else all of standard input.
std::string RecordArgument(const std::optional<std::string>& record);

}  // namespace veletas::cli
