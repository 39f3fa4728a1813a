// Strict YAML config reading (KataGo-style): every value is type- and range-checked with
// the file, line and key in the error; unknown keys are rejected; the effective values
// (defaults included) are collected for `config.resolved.yaml`.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/result.h"
#include "util/settings_table.h"

namespace YAML {
class Node;
}

namespace veletas::config {

// Config files larger than this are refused (no preset comes near).
inline constexpr unsigned long long kMaxConfigBytes = 1 << 20;

// The errors (unknown keys, bad values) a config error lists at most (the rest are counted).
inline constexpr size_t kMaxConfigErrorsListed = 20;

// A bad config: message like `run.yaml:12: search.simulations: 0 is out of range [1, 100000]`,
// a line per error of the file.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One mapping of the config file (the root or a nested section). Accessors record a bad value
// (wrong type, out of range, not allowed) as an error of the file and return the default, so
// that reading carries on and finds every error; the root's RejectUnknownKeys (the last call
// of a file's reading) throws ConfigError listing them all. Errors of the file's structure
// (unreadable, not YAML, a key that is not a word) throw at once. Not thread-safe; used while
// loading only. As a util::SettingsReader it reads the layers' settings tables (ReadSection).
class ConfigSection : public util::SettingsReader {
 public:
  // Parses `path`; throws ConfigError if it cannot be read or is not a YAML mapping.
  static ConfigSection LoadFile(const std::string& path);
  // Parses YAML text (errors name `source_name`).
  static ConfigSection LoadString(const std::string& text, const std::string& source_name);
  ~ConfigSection() override;
  ConfigSection(ConfigSection&&) noexcept;

  // Typed values (util::SettingsReader); `fallback` when the key is absent. Values of the
  // wrong type, outside [lo, hi] or not among `allowed` are errors. Nothing is clamped.
  long long Int(const std::string& key, long long fallback, long long lo, long long hi) override;
  // Any finite number; Float shows the default in its shortest float form (0.1, not
  // 0.10000000149011612). Their ranges are the layer's Validate() (checked with Check).
  double Real(const std::string& key, double fallback) override;
  float Float(const std::string& key, float fallback) override;
  bool Bool(const std::string& key, bool fallback) override;
  std::string Choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed) override;
  std::string String(const std::string& key, const std::string& fallback) override;
  // A list of integers, each in [lo, hi].
  std::vector<long long> IntList(const std::string& key, const std::vector<long long>& fallback,
                                 long long lo, long long hi) override;
  // A layer's verdict on the settings read from this section (its Validate()): records, for
  // each line of an error `status`, "<file>:<line>: <section>.<key>: <what>" when the line
  // starts with a key of this section ("<key>: <what>"), else
  // "<file>:<line>: <section>: <message>".
  void Check(const util::Status& status) const override;
  // Records the error "<file>:<line>: <section>.<key>: <what>" (once per key: a key's later
  // errors are dropped).
  void Fail(const std::string& key, const std::string& what) const;
  // A nested mapping (empty when absent). Precondition: the parent outlives it.
  ConfigSection Section(const std::string& key);
  std::unique_ptr<util::SettingsReader> Nested(const std::string& key) override;
  // Whether the file has `key` here (with a value). Does not count as reading it.
  bool Has(const std::string& key) const;
  // Records every key of this section that no accessor asked for (with the closest known
  // key as a suggestion); on the root (the last call of a file's reading) throws ConfigError
  // listing all the file's errors, a line each, when there are any.
  void RejectUnknownKeys() override;
  // The errors recorded so far in the whole file, a line each in the order of their lines,
  // at most kMaxConfigErrorsListed and then how many more ("" when none).
  std::string ErrorsText() const;
  // The effective config (every value read, with defaults filled in) as YAML text.
  std::string ResolvedYaml() const;
  // Error prefix "<file>:<line>: <path.key>: " for a key of this section.
  std::string Where(const std::string& key) const;

 private:
  struct State;
  ConfigSection(std::shared_ptr<State> state, std::unique_ptr<YAML::Node> node,
                std::unique_ptr<YAML::Node> resolved, std::string path);
  const YAML::Node* Lookup(const std::string& key);
  // The line of `key` in this mapping (the mapping's own line when absent), from 1.
  int LineOf(const std::string& key) const;
  // Records `text` as an error at `line`, unless `key_path` (when not empty) already has one.
  void Record(int line, const std::string& key_path, std::string text) const;
  std::shared_ptr<State> state_;
  std::unique_ptr<YAML::Node> node_;
  std::unique_ptr<YAML::Node> resolved_;
  std::string path_;
  std::vector<std::string> used_;
};

// Reads the settings of struct S (its table, S::Fields()) from `section`, with the values of
// `out` as defaults, then checks them (S::Validate()) and rejects unknown keys.
template <class S>
void ReadSection(ConfigSection& section, S& out) {
  util::ReadFields<S>(S::Fields(), out, section);
  section.Check(out.Validate());
  section.RejectUnknownKeys();
}

}  // namespace veletas::config
