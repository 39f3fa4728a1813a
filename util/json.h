// Reading JSON with nlohmann::json the way every reader of the project must: the nesting is
// bounded before parsing (util/json_text.h), syntax errors are values naming the source, and
// values quoted in error messages are short. Header-only, so that util itself does not
// depend on the JSON library (its users link nlohmann_json).
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "util/json_text.h"
#include "util/result.h"

namespace veletas::util {

// The JSON document `text`, or bad input naming `source` (e.g. "run/state.json: not valid
// JSON: ... at line 3, column 7", or the nesting bound). Strings must be valid UTF-8.
inline Result<nlohmann::json> ParseJson(std::string_view text, const std::string& source,
                                        int max_depth = kMaxJsonDepth) {
  using R = Result<nlohmann::json>;
  if (std::string deep = CheckJsonDepth(text, max_depth); !deep.empty()) {
    return R::Error(source + ": " + deep);
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return R::Error(source + ": not valid JSON: " + e.what());
  }
}

// `v` for an error message: a number, boolean or null as JSON, a string quoted and cut to
// about `max_chars` characters, an array or object by its type and size.
inline std::string JsonExcerpt(const nlohmann::json& v, size_t max_chars = 60) {
  if (v.is_array() || v.is_object()) {
    return std::string(v.is_array() ? "an array" : "an object") + " of " +
           std::to_string(v.size()) + (v.size() == 1 ? " element" : " elements");
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() <= max_chars) return v.dump();
    return nlohmann::json(s.substr(0, max_chars))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
           "...";
  }
  return v.dump();
}

// The integer `v` (named `what` in errors) as a T: a JSON integer within T's range. JSON
// numbers like 1.5 or 1e300 and out-of-range integers throw std::invalid_argument (the
// library's own get<T>() would convert them, a float out of range with undefined behaviour).
template <class T>
T JsonIntegerValue(const nlohmann::json& v, const std::string& what) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (std::in_range<T>(u)) return static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const auto s = v.get<int64_t>();
    if (std::in_range<T>(s)) return static_cast<T>(s);
  }
  throw std::invalid_argument(
      what + ": expected an integer in [" + std::to_string(std::numeric_limits<T>::min()) + ", " +
      std::to_string(std::numeric_limits<T>::max()) + "], got " + JsonExcerpt(v));
}

// The member `key` of the object `j` as a T (JsonIntegerValue); a missing key throws too.
template <class T>
T JsonInteger(const nlohmann::json& j, const char* key) {
  return JsonIntegerValue<T>(j.at(key), key);
}

// The member `key` of the object `j` as a finite number; otherwise std::invalid_argument.
inline double JsonNumber(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (v.is_number()) {
    const double x = v.get<double>();
    if (std::isfinite(x)) return x;
  }
  throw std::invalid_argument(std::string(key) + ": expected a number, got " + JsonExcerpt(v));
}

// The member `key` of `j` as a T (a string; an integer within T's range; a finite number), or
// `fallback` when `j` is not an object or the member is missing or not such a value: for
// showing what may be garbage (a heartbeat another process wrote) without trusting it.
template <class T>
T JsonValueOr(const nlohmann::json& j, const char* key, T fallback) {
  if (!j.is_object() || !j.contains(key)) return fallback;
  const nlohmann::json& v = j.at(key);
  if constexpr (std::is_same_v<T, std::string>) {
    return v.is_string() ? v.get<std::string>() : fallback;
  } else {
    try {
      if constexpr (std::is_integral_v<T>) return JsonIntegerValue<T>(v, key);
      return static_cast<T>(JsonNumber(j, key));
    } catch (const std::exception&) {
      return fallback;
    }
  }
}

}  // namespace veletas::util
