// A small command-line parser: `--name value`, `--name=value` and boolean `--flag`
// options declared up front; anything unknown is an error naming it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/config.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::app {

struct OptionSpec {
  std::string name;  // without the leading dashes
  bool takes_value;
  bool repeatable = false;  // may be given several times (read with Values)
};

class ParsedArgs {
 public:
  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> Value(const std::string& name) const;
  // Every value of a repeatable option, in the order given (empty when absent).
  std::vector<std::string> Values(const std::string& name) const;
  const std::vector<std::string>& Positional() const { return positional_; }
  // Integer option in [lo, hi]; `fallback` when absent. The error names the option.
  util::Result<long long> Int(const std::string& name, long long fallback, long long lo,
                              long long hi) const;
  util::Result<double> Real(const std::string& name, double fallback, double lo, double hi) const;

 private:
  friend util::Result<ParsedArgs> ParseArgs(const std::vector<OptionSpec>&,
                                            const std::vector<std::string>&, size_t);
  std::map<std::string, std::vector<std::string>> values_;  // every value, in order
  std::vector<std::string> positional_;
};

// Parses `args` against `specs`, allowing at most `max_positional` positional arguments.
util::Result<ParsedArgs> ParseArgs(const std::vector<OptionSpec>& specs,
                                   const std::vector<std::string>& args, size_t max_positional);

// --rules and --size (defaults: standard, 10).
struct GameOptions {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 10;
};
util::Result<GameOptions> ParseGameOptions(const ParsedArgs& args);

// The settings of a command that takes --config FILE, --rules and --size: the config file
// when given (else the defaults on a 10x10 board), then --rules and --size over it. The
// error names the file and line or the option.
util::Result<Config> ConfigFromArgs(const ParsedArgs& args);

// Prints "veletas <command>: <message>" to stderr and returns 2.
int UsageError(const std::string& command, const std::string& message);

// The RECORD argument: the positional argument if given, else all of standard input.
std::string RecordArgument(const ParsedArgs& args);

}  // namespace veletas::app
