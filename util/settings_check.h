// Checks for the settings structs' Validate() functions (search::SearchConfig,
// training::TrainingConfig, ...): each layer states the ranges of its own settings once,
// beside the struct. A failed check is a bad-input error "<key>: <what>" whose key is the
// setting's name as config files spell it ("learning_rate"; nested settings "gate.elo1"),
// so that the config reader can add the file and line
// (`run.yaml:12: training.learning_rate: 20 is out of range (0, 10]`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace veletas::util {

// Which ends of a range are excluded.
enum class Ends { kClosed, kOpenLow, kOpenHigh, kOpen };

// Collects checks; every key's first failed check is in the result, in the order checked.
// Not thread-safe (a local object).
class SettingsCheck {
 public:
  // v in [lo, hi].
  SettingsCheck& Int(std::string_view key, long long v, long long lo, long long hi);
  // Each element of v in [lo, hi].
  SettingsCheck& IntList(std::string_view key, const std::vector<long long>& v, long long lo,
                         long long hi);
  // v finite and within lo..hi, the ends as `ends` says. The float overload shows the value
  // and the ends in their shortest float form (0.1, not 0.10000000149011612).
  SettingsCheck& Real(std::string_view key, double v, double lo, double hi,
                      Ends ends = Ends::kClosed);
  SettingsCheck& Real(std::string_view key, float v, double lo, double hi,
                      Ends ends = Ends::kClosed);
  // `ok`, else the error "<key>: <what>" (a rule between settings, e.g. "300 is more than
  // full_simulations (200)").
  SettingsCheck& That(bool ok, std::string_view key, std::string_view what);
  // The result of a nested struct's Validate(), each line's key prefixed with "<prefix>." (an
  // empty prefix keeps the keys: a struct whose settings sit beside the outer struct's).
  SettingsCheck& Nested(std::string_view prefix, const Status& nested);
  // Ok, or every failed check (bad input), a line "<key>: <what>" each.
  Status Result() const;

 private:
  void Fail(std::string_view key, const std::string& what);
  // Adds the error line `line` unless its key already failed.
  void Add(std::string line);
  std::vector<std::string> errors_;
};

// The key of a settings error ("gate.elo1" in "gate.elo1: 5 is out of range ..."), or ""
// when the message does not start with one (letters, digits, '_' and '.', then ": ").
std::string_view SettingKey(std::string_view message);

// The text shown for a number in settings errors: the shortest that reads back as exactly
// v (0.9, 1e-06, 20).
std::string FormatSetting(double v);
std::string FormatSetting(float v);

}  // namespace veletas::util
