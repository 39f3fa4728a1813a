// Shared helper of the config section tests.
#pragma once

#include <string>

#include "config/config.h"

namespace veletas::config::testing {

// Parses `yaml` as the body of the section `name` with `parse` (one of the Parse*Section
// functions), rejecting unknown keys as a config file would; returns the error or "".
template <class T, class Fn>
std::string ParseError(const std::string& name, const std::string& yaml, Fn parse, T& out) {
  try {
    ConfigSection root = ConfigSection::LoadString(name + ":\n" + yaml, "test.yaml");
    ConfigSection s = root.Section(name);
    parse(s, out);
    root.RejectUnknownKeys();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace veletas::config::testing
