// Helpers of the C API's implementation (web/api_*.cpp): the returned-string buffer and
// argument parsing.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "rules/position.h"

namespace veletas::web {

// Keeps `text` in the module's string buffer and returns it (valid until the next call).
const char* Out(std::string text);
inline const char* OutJson(const nlohmann::json& j) { return Out(j.dump()); }

// The game named by a rule set ("standard", "classic") and a board size, when supported.
struct GameKind {
  rules::RuleSet rules;
  int size;
};
std::optional<GameKind> ParseGameKind(const char* rules, int size);

}  // namespace veletas::web
