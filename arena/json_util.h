// Internal helpers of the arena layer for reading and writing JSON files with precise
// error messages. Not thread-safe per object; use one JsonFields per object read.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "arena/elo.h"

namespace veletas::arena {

// Reads the fields of one JSON object, remembering the first error, which names the path of
// the field (e.g. `results[3].winner: expected "a" or "b", got "c"`). Every getter returns
// a harmless default after an error; check ok() (or error()) once after reading.
class JsonFields {
 public:
  // `path` prefixes error messages ("" for the top level).
  JsonFields(const nlohmann::json& object, std::string path);

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  bool Has(const std::string& key) const;
  // The full name of `key` for messages: "path.key" or "key".
  std::string Name(const std::string& key) const;

  long long Int(const std::string& key, long long lo, long long hi);
  double Real(const std::string& key, double lo, double hi);
  std::string String(const std::string& key);
  // A JSON object or array member; nullptr (and an error) when missing or of another type.
  const nlohmann::json* Object(const std::string& key);
  const nlohmann::json* Array(const std::string& key);
  void Fail(const std::string& message);

 private:
  const nlohmann::json* Get(const std::string& key, const char* expected);
  const nlohmann::json& object_;
  std::string path_;
  std::string error_;
};

// Writes score, elo, elo_ci95 ([low, high], null for an unbounded end), elo_bound and los.
void AddEloFields(nlohmann::json& out, const EloEstimate& e);

// Rounds to `digits` decimals so that files stay readable (e.g. 70.4365 -> 70.44).
double Round(double x, int digits);

}  // namespace veletas::arena
