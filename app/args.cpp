#include "app/args.h"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <iterator>

#include "rules/notation.h"

namespace veletas::app {

std::optional<std::string> ParsedArgs::Value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second.front();  // the first value
}

std::vector<std::string> ParsedArgs::Values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

util::Result<long long> ParsedArgs::Int(const std::string& name, long long fallback, long long lo,
                                        long long hi) const {
  const std::optional<std::string> v = Value(name);
  if (!v) return fallback;
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0' || errno != 0) {
    return util::Result<long long>::Error("--" + name + ": expected an integer, got \"" + *v +
                                          "\"");
  }
  if (x < lo || x > hi) {
    return util::Result<long long>::Error("--" + name + ": " + *v + " is out of range [" +
                                          std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return x;
}

util::Result<double> ParsedArgs::Real(const std::string& name, double fallback, double lo,
                                      double hi) const {
  const std::optional<std::string> v = Value(name);
  if (!v) return fallback;
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || errno != 0) {
    return util::Result<double>::Error("--" + name + ": expected a number, got \"" + *v + "\"");
  }
  if (!(x >= lo && x <= hi)) {
    return util::Result<double>::Error("--" + name + ": " + *v + " is out of range [" +
                                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return x;
}

util::Result<ParsedArgs> ParseArgs(const std::vector<OptionSpec>& specs,
                                   const std::vector<std::string>& args, size_t max_positional) {
  ParsedArgs parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      std::string name = a.substr(2), value;
      bool inline_value = false;
      if (const size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      const OptionSpec* spec = nullptr;
      for (const OptionSpec& s : specs) {
        if (s.name == name) spec = &s;
      }
      if (!spec) return util::Result<ParsedArgs>::Error("unknown option --" + name);
      if (spec->takes_value && !inline_value) {
        if (i + 1 >= args.size()) {
          return util::Result<ParsedArgs>::Error("option --" + name + " needs a value");
        }
        value = args[++i];
      } else if (!spec->takes_value && inline_value) {
        return util::Result<ParsedArgs>::Error("option --" + name + " takes no value");
      }
      if (parsed.values_.count(name) && !spec->repeatable) {
        return util::Result<ParsedArgs>::Error("option --" + name + " given twice");
      }
      parsed.values_[name].push_back(value);
    } else {
      parsed.positional_.push_back(a);
    }
  }
  if (parsed.positional_.size() > max_positional) {
    return util::Result<ParsedArgs>::Error("unexpected argument \"" +
                                           parsed.positional_[max_positional] + "\"");
  }
  return parsed;
}

util::Result<GameOptions> ParseGameOptions(const ParsedArgs& args) {
  GameOptions g;
  if (const auto r = args.Value("rules")) {
    const auto parsed = rules::ParseRuleSet(*r);
    if (!parsed) {
      return util::Result<GameOptions>::Error("--rules: expected standard or classic, got \"" + *r +
                                              "\"");
    }
    g.rules = *parsed;
  }
  if (const auto s = args.Value("size")) {
    if (*s != "7" && *s != "9" && *s != "10") {
      return util::Result<GameOptions>::Error("--size: expected 7, 9 or 10, got \"" + *s + "\"");
    }
    g.size = std::stoi(*s);
  }
  return g;
}

int UsageError(const std::string& command, const std::string& message) {
  std::cerr << "veletas " << command << ": " << message << "\n";
  return 2;
}

std::string RecordArgument(const ParsedArgs& args) {
  if (!args.Positional().empty()) return args.Positional()[0];
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

util::Result<Config> ConfigFromArgs(const ParsedArgs& args) {
  Config config;
  if (const auto file = args.Value("config")) {
    auto loaded = LoadConfig(*file);
    if (!loaded) return loaded.error_value();
    config = loaded.value();
  } else {
    config.game.size = 10;
  }
  auto game = ParseGameOptions(args);
  if (!game) return game.error_value();
  if (args.Has("rules")) config.game.rules = game.value().rules;
  if (args.Has("size")) config.game.size = game.value().size;
  return config;
}

}  // namespace veletas::app
