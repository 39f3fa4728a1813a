// Reading JSON with nlohmann::json the way every reader of the project must: the nesting is
// bounded before parsing (util/json_text.h), syntax errors are values naming the source, and
// values quoted in error messages are short, and fields are read by one reader that collects
// the first error (JsonFields). Header-only, so that util itself does not
// depend on the JSON library (its users link nlohmann_json).
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
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
  if (Status deep = CheckJsonDepth(text, max_depth); !deep.ok()) {
    return Prefixed(deep.error_value(), source + ": ");
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

// The one reader of JSON fields: reads the members of one JSON object, remembering the
// first error, which names the field by its path and says what was expected (e.g.
// `results[3].winner: expected a string, got 7`, `generation: missing (expected an
// integer)`, `size: 99 is out of range [5, 10]`). Every getter returns a harmless default
// after an error, so a reader reads all its fields and checks ok() (or status()) once.
// Nothing throws. Not thread-safe; one JsonFields per object read.
class JsonFields {
 public:
  // The object `object` (an error when it is not one), named `path` in messages ("" for
  // the top level). `object` must outlive this reader.
  JsonFields(const nlohmann::json& object, std::string path) : j_(object), path_(std::move(path)) {
    if (!j_.is_object()) {
      error_ = (path_.empty() ? std::string("top level") : path_) +
               ": expected a JSON object, got " + j_.type_name();
    }
  }

  bool ok() const { return error_.empty(); }
  // The first error ("" when none).
  const std::string& error() const { return error_; }
  // OK, or the first error as bad input prefixed by `prefix` (e.g. "run/state.json: ").
  Status status(const std::string& prefix = "") const {
    if (ok()) return Ok();
    return Error{prefix + error_, ErrorKind::kBadInput};
  }
  // Whether the member `key` is present and not null.
  bool Has(const std::string& key) const {
    return j_.is_object() && j_.contains(key) && !j_.at(key).is_null();
  }
  // The full name of `key` for messages: "path.key" or "key".
  std::string Name(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  // Records `message` as the error unless there is one already.
  void Fail(const std::string& message) {
    if (error_.empty()) error_ = message;
  }

  // The member `key` as a T: a JSON integer within T's range (1.5, 1e300 and out-of-range
  // integers are errors; nlohmann's own get<T>() would convert them).
  template <class T>
  T Integer(const std::string& key) {
    const nlohmann::json* v = Get(key, "an integer");
    return v == nullptr ? T{} : IntegerOf<T>(*v, Name(key));
  }
  // The value `v` (an array element, named `name` in messages) as Integer<T> reads a member.
  template <class T>
  T IntegerOf(const nlohmann::json& v, const std::string& name) {
    if (!ok()) return T{};
    if (v.is_number_unsigned()) {
      const auto u = v.get<uint64_t>();
      if (std::in_range<T>(u)) return static_cast<T>(u);
    } else if (v.is_number_integer()) {
      const auto i = v.get<int64_t>();
      if (std::in_range<T>(i)) return static_cast<T>(i);
    }
    Fail(name + ": expected an integer in [" + std::to_string(std::numeric_limits<T>::min()) +
         ", " + std::to_string(std::numeric_limits<T>::max()) + "], got " + JsonExcerpt(v));
    return T{};
  }
  // The member `key` as an integer in [lo, hi]; `lo` after an error.
  long long Int(const std::string& key, long long lo, long long hi) {
    const nlohmann::json* v = Get(key, "an integer");
    if (v == nullptr) return lo;
    const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (!v->is_number_integer()) {
      Fail(Name(key) + ": expected an integer in " + range + ", got " + JsonExcerpt(*v));
      return lo;
    }
    const bool fits = v->is_number_unsigned() ? std::cmp_less_equal(v->get<uint64_t>(), hi) &&
                                                    std::cmp_greater_equal(v->get<uint64_t>(), lo)
                                              : v->get<int64_t>() >= lo && v->get<int64_t>() <= hi;
    if (!fits) {
      Fail(Name(key) + ": " + v->dump() + " is out of range " + range);
      return lo;
    }
    return v->get<long long>();
  }
  // The member `key` as a finite number.
  double Number(const std::string& key) {
    const nlohmann::json* v = Get(key, "a number");
    if (v == nullptr) return 0.0;
    if (v->is_number()) {
      const double x = v->get<double>();
      if (std::isfinite(x)) return x;
    }
    Fail(Name(key) + ": expected a finite number, got " + JsonExcerpt(*v));
    return 0.0;
  }
  // The member `key` as a finite number in [lo, hi]; `lo` after an error.
  double Real(const std::string& key, double lo, double hi) {
    const double x = Number(key);
    if (!ok()) return lo;
    if (x < lo || x > hi) {
      Fail(Name(key) + ": " + JsonExcerpt(j_.at(key)) + " is out of range [" +
           nlohmann::json(lo).dump() + ", " + nlohmann::json(hi).dump() + "]");
      return lo;
    }
    return x;
  }
  std::string String(const std::string& key) {
    const nlohmann::json* v = Get(key, "a string");
    if (v == nullptr) return "";
    if (!v->is_string()) {
      Fail(Name(key) + ": expected a string, got " + JsonExcerpt(*v));
      return "";
    }
    return v->get<std::string>();
  }
  bool Bool(const std::string& key) {
    const nlohmann::json* v = Get(key, "true or false");
    if (v == nullptr) return false;
    if (!v->is_boolean()) {
      Fail(Name(key) + ": expected true or false, got " + JsonExcerpt(*v));
      return false;
    }
    return v->get<bool>();
  }
  // The member `key` as Integer<T>, Number or Bool reads it, or `fallback` when it is absent
  // or null (fields added in later versions of a format).
  template <class T>
  T IntegerOr(const std::string& key, T fallback) {
    return Has(key) ? Integer<T>(key) : fallback;
  }
  double NumberOr(const std::string& key, double fallback) {
    return Has(key) ? Number(key) : fallback;
  }
  bool BoolOr(const std::string& key, bool fallback) { return Has(key) ? Bool(key) : fallback; }
  // A JSON object or array member; nullptr (and an error) when missing or of another type.
  const nlohmann::json* Object(const std::string& key) {
    const nlohmann::json* v = Get(key, "an object");
    if (v != nullptr && !v->is_object()) {
      Fail(Name(key) + ": expected an object, got " + JsonExcerpt(*v));
      return nullptr;
    }
    return v;
  }
  const nlohmann::json* Array(const std::string& key) {
    const nlohmann::json* v = Get(key, "an array");
    if (v != nullptr && !v->is_array()) {
      Fail(Name(key) + ": expected an array, got " + std::string(v->type_name()));
      return nullptr;
    }
    return v;
  }

 private:
  const nlohmann::json* Get(const std::string& key, const char* expected) {
    if (!ok()) return nullptr;
    if (!j_.contains(key)) {
      Fail(Name(key) + ": missing (expected " + expected + ")");
      return nullptr;
    }
    return &j_.at(key);
  }

  const nlohmann::json& j_;
  std::string path_;
  std::string error_;
};

// The member `key` of `j` as a T (a string; an integer within T's range; a finite number), or
// `fallback` when `j` is not an object or the member is missing or not such a value: for
// showing what may be garbage (a heartbeat another process wrote) without trusting it.
template <class T>
T JsonValueOr(const nlohmann::json& j, const char* key, T fallback) {
  JsonFields f(j, "");
  T v;
  if constexpr (std::is_same_v<T, std::string>) {
    v = f.String(key);
  } else if constexpr (std::is_integral_v<T>) {
    v = f.Integer<T>(key);
  } else {
    v = static_cast<T>(f.Number(key));
  }
  return f.ok() ? v : fallback;
}

}  // namespace veletas::util
