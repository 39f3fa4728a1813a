// A bound on the nesting of the JSON text the project reads. Checked on the raw text before
// any JSON parser sees it, so that hostile input (e.g. 100,000 nested arrays) can neither
// exhaust the stack of a recursive parser, printer or destructor nor make error messages
// huge. Plain C++ (no JSON library); util/json.h wraps it around nlohmann::json.
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::util {

// The deepest nesting of arrays and objects the project's readers accept. The deepest of
// its own files (a match record, the pipeline state) nest 4 levels.
inline constexpr int kMaxJsonDepth = 64;

// OK when the arrays and objects of the JSON text `text` nest at most `max_depth` levels
// (brackets inside strings do not count), else a bad-input error saying why not, e.g.
// "arrays and objects nest deeper than 64 levels (at byte 131)". Only the nesting is checked, not
// the syntax. Thread-safe; linear time, constant memory.
Status CheckJsonDepth(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace veletas::util
