#include "app/args.h"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <iterator>

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

}  // namespace veletas::app
