// The hand-written parser of legacy commands (VELETAS_COMMAND, app/command.h), kept until
// the last of them declares its options with CLI11 (app/cli.h): `--name value`,
// `--name=value` and boolean `--flag` options declared up front; anything unknown is an
// error naming it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
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

}  // namespace veletas::app
