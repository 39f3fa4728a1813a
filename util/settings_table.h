// Settings tables: each settings struct (search::SearchConfig, training::TrainingConfig, ...)
// lists its settings once, one row each: the key as config files spell it, the member, the
// allowed range and a line of help. The struct's Validate() checks the rows (CheckFields,
// then any rule between settings in code); the config reader (config/) reads the rows
// (ReadFields through a SettingsReader). Adding a setting is adding its row.
//
//   const util::Field<BatchingConfig> kFields[] = {
//       util::IntField("max_batch", &BatchingConfig::max_batch, 2, 65536, "largest batch"),
//   };
//
// Header-only; no YAML (the reader is an interface that config/ implements).
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "util/result.h"
#include "util/settings_check.h"

namespace veletas::util {

// The largest seed a config file may give (SeedField): 2^62, so that it fits a signed
// 64-bit integer in every tool that reads the resolved config.
inline constexpr long long kMaxConfigSeed = 1LL << 62;

// One value of an enum setting and its name in config files. An array of these is the one
// mapping between the enum and its names (ChoiceName, ChoiceValue).
template <class E>
struct Choice {
  E value;
  const char* name;
};

// The name of `value` ("" when `choices` lacks it).
template <class E>
const char* ChoiceName(std::span<const Choice<E>> choices, E value) {
  for (const Choice<E>& c : choices) {
    if (c.value == value) return c.name;
  }
  return "";
}

// The value named `name` (nullopt when none is).
template <class E>
std::optional<E> ChoiceValue(std::span<const Choice<E>> choices, std::string_view name) {
  for (const Choice<E>& c : choices) {
    if (name == c.name) return c.value;
  }
  return std::nullopt;
}

// The names of `choices`, in order.
template <class E>
std::vector<std::string> ChoiceNames(std::span<const Choice<E>> choices) {
  std::vector<std::string> names;
  for (const Choice<E>& c : choices) names.emplace_back(c.name);
  return names;
}

// Where ReadFields reads settings from: one mapping of a config file (config::ConfigSection).
// Every accessor records the key as read and its effective value; errors (a value of the
// wrong type or outside the range, a rejected verdict) are the reader's to report: the config
// reader collects every error of a file and throws when the file has been read.
class SettingsReader {
 public:
  virtual ~SettingsReader() = default;
  // The integer at `key` (`fallback` when absent), in [lo, hi].
  virtual long long Int(const std::string& key, long long fallback, long long lo, long long hi) = 0;
  // Any finite number at `key`; the float form shows the default in its shortest float text.
  virtual double Real(const std::string& key, double fallback) = 0;
  virtual float Float(const std::string& key, float fallback) = 0;
  virtual bool Bool(const std::string& key, bool fallback) = 0;
  virtual std::string String(const std::string& key, const std::string& fallback) = 0;
  // One of `names`.
  virtual std::string Choice(const std::string& key, const std::string& fallback,
                             const std::vector<std::string>& names) = 0;
  // A list of integers, each in [lo, hi].
  virtual std::vector<long long> IntList(const std::string& key,
                                         const std::vector<long long>& fallback, long long lo,
                                         long long hi) = 0;
  // The nested mapping `key` (empty when absent). Precondition: this reader outlives it.
  virtual std::unique_ptr<SettingsReader> Nested(const std::string& key) = 0;
  // Reports `status` (a Validate() verdict, a line "<key>: <what>" per error) when it is an
  // error.
  virtual void Check(const Status& status) const = 0;
  // Reports every key of the mapping that was not read.
  virtual void RejectUnknownKeys() = 0;
};

// Rows of struct S whose values live in a nested struct: its own rows, at the same level
// (empty key) or in a nested mapping and under a key prefix ("gate"). Made by NestedField.
template <class S>
struct NestedRef {
  void (*read)(S& s, SettingsReader& reader, const std::string& key);
  Status (*validate)(const S& s);
};

// An enum setting of S, read and written by name. Made by EnumField.
template <class S>
struct EnumRef {
  const char* (*name)(const S& s);
  void (*assign)(S& s, std::string_view name);  // precondition: one of names()
  std::vector<std::string> (*names)();
};

// One row of a settings table of struct S. Build rows with the functions below.
template <class S>
struct Field {
  using Member = std::variant<int S::*, int64_t S::*, uint64_t S::*, float S::*, double S::*,
                              bool S::*, std::string S::*, std::vector<int> S::*,
                              std::vector<int64_t> S::*, EnumRef<S>, NestedRef<S>>;
  const char* key;  // as config files spell it
  Member member;
  // Integers (and each element of a list) in [int_lo, int_hi]; numbers within real_lo..
  // real_hi, the ends as `ends` says. A seed's range bounds the config value only (seeds
  // derived at run time use all 64 bits).
  long long int_lo = LLONG_MIN;
  long long int_hi = LLONG_MAX;
  double real_lo = 0;
  double real_hi = 0;
  Ends ends = Ends::kClosed;
  const char* help = "";
};

// An integer setting (int or int64_t) in [lo, hi].
template <class S, class T>
requires std::is_same_v<T, int> || std::is_same_v<T, int64_t> Field<S> IntField(
    const char* key, T S::*member, long long lo, long long hi, const char* help) {
  return {.key = key, .member = member, .int_lo = lo, .int_hi = hi, .help = help};
}

// A seed: any value at run time, [0, kMaxConfigSeed] in a config file.
template <class S>
Field<S> SeedField(const char* key, uint64_t S::*member, const char* help) {
  return {.key = key, .member = member, .int_lo = 0, .int_hi = kMaxConfigSeed, .help = help};
}

// A number (float or double) within lo..hi, the ends as `ends` says.
template <class S, class T>
requires std::is_floating_point_v<T> Field<S> RealField(const char* key, T S::*member, double lo,
                                                        double hi, const char* help,
                                                        Ends ends = Ends::kClosed) {
  return {.key = key, .member = member, .real_lo = lo, .real_hi = hi, .ends = ends, .help = help};
}

// A boolean, a string (its checks, if any, are Validate()'s code), a list of integers each
// in [lo, hi].
template <class S>
Field<S> BoolField(const char* key, bool S::*member, const char* help) {
  return {.key = key, .member = member, .help = help};
}
template <class S>
Field<S> StringField(const char* key, std::string S::*member, const char* help) {
  return {.key = key, .member = member, .help = help};
}
template <class S, class T>
Field<S> IntListField(const char* key, std::vector<T> S::*member, long long lo, long long hi,
                      const char* help) {
  return {.key = key, .member = member, .int_lo = lo, .int_hi = hi, .help = help};
}

namespace settings_detail {
template <class M>
struct MemberOf;
template <class S, class T>
struct MemberOf<T S::*> {
  using Struct = S;
  using Type = T;
};
}  // namespace settings_detail

// An enum setting (member M) named by `kChoices` (an array of Choice; only these values are
// allowed in a config file).
template <auto M, const auto& kChoices>
auto EnumField(const char* key, const char* help) {
  using S = typename settings_detail::MemberOf<decltype(M)>::Struct;
  using E = typename settings_detail::MemberOf<decltype(M)>::Type;
  const std::span<const Choice<E>> choices = kChoices;
  (void)choices;  // the array must be one of Choice<E>
  EnumRef<S> ref{
      .name = [](const S& s) { return ChoiceName<E>(kChoices, s.*M); },
      .assign =
          [](S& s, std::string_view name) {
            if (auto v = ChoiceValue<E>(kChoices, name)) s.*M = *v;
          },
      .names = [] { return ChoiceNames<E>(kChoices); },
  };
  return Field<S>{.key = key, .member = ref, .help = help};
}

template <class S>
void ReadFields(std::span<const Field<S>> fields, S& s, SettingsReader& reader);

// The settings of the struct member M (whose type has Fields() and Validate()): at the
// same level when `key` is empty, else in the nested mapping `key`, whose errors carry the
// prefix "<key>.".
template <auto M>
auto NestedField(const char* key, const char* help) {
  using S = typename settings_detail::MemberOf<decltype(M)>::Struct;
  using Sub = typename settings_detail::MemberOf<decltype(M)>::Type;
  NestedRef<S> ref{
      .read =
          [](S& s, SettingsReader& reader, const std::string& k) {
            if (k.empty()) {
              ReadFields<Sub>(Sub::Fields(), s.*M, reader);
              return;
            }
            std::unique_ptr<SettingsReader> nested = reader.Nested(k);
            ReadFields<Sub>(Sub::Fields(), s.*M, *nested);
            nested->Check((s.*M).Validate());
            nested->RejectUnknownKeys();
          },
      .validate = [](const S& s) { return (s.*M).Validate(); },
  };
  return Field<S>{.key = key, .member = ref, .help = help};
}

// Checks every row of `fields` on `s` (integers and lists against their ranges, numbers
// against theirs, nested structs by their Validate()), in order, into `check`.
template <class S>
void CheckFields(std::span<const Field<S>> fields, const S& s, SettingsCheck& check) {
  for (const Field<S>& f : fields) {
    std::visit(
        [&](const auto& m) {
          using M = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<M, int S::*> || std::is_same_v<M, int64_t S::*>) {
            check.Int(f.key, s.*m, f.int_lo, f.int_hi);
          } else if constexpr (std::is_same_v<M, float S::*> || std::is_same_v<M, double S::*>) {
            check.Real(f.key, s.*m, f.real_lo, f.real_hi, f.ends);
          } else if constexpr (std::is_same_v<M, std::vector<int> S::*> ||
                               std::is_same_v<M, std::vector<int64_t> S::*>) {
            check.IntList(f.key, std::vector<long long>((s.*m).begin(), (s.*m).end()), f.int_lo,
                          f.int_hi);
          } else if constexpr (std::is_same_v<M, NestedRef<S>>) {
            check.Nested(f.key, m.validate(s));
          }
          // Seeds, booleans, strings and enums: any value (a string's rules are code).
        },
        f.member);
  }
}

// Ok when every row of S::Fields() holds on `s` (CheckFields), else the first that does not: the
// whole Validate() of a struct without rules between its settings.
template <class S>
Status ValidateFields(const S& s) {
  SettingsCheck check;
  CheckFields(S::Fields(), s, check);
  return check.Result();
}

// Reads every row of `fields` into `s` from `reader`, the current values as defaults:
// integers and lists with their ranges, numbers of any finite value (Validate() checks
// them), enums among their names; a nested struct's rows from the same mapping, or from
// its own, which is then checked by its Validate() and for unknown keys.
template <class S>
void ReadFields(std::span<const Field<S>> fields, S& s, SettingsReader& reader) {
  for (const Field<S>& f : fields) {
    const std::string key = f.key;
    std::visit(
        [&](const auto& m) {
          using M = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<M, int S::*>) {
            s.*m = static_cast<int>(reader.Int(key, s.*m, f.int_lo, f.int_hi));
          } else if constexpr (std::is_same_v<M, int64_t S::*>) {
            s.*m = reader.Int(key, s.*m, f.int_lo, f.int_hi);
          } else if constexpr (std::is_same_v<M, uint64_t S::*>) {
            s.*m = static_cast<uint64_t>(
                reader.Int(key, static_cast<long long>(s.*m), f.int_lo, f.int_hi));
          } else if constexpr (std::is_same_v<M, float S::*>) {
            s.*m = reader.Float(key, s.*m);
          } else if constexpr (std::is_same_v<M, double S::*>) {
            s.*m = reader.Real(key, s.*m);
          } else if constexpr (std::is_same_v<M, bool S::*>) {
            s.*m = reader.Bool(key, s.*m);
          } else if constexpr (std::is_same_v<M, std::string S::*>) {
            s.*m = reader.String(key, s.*m);
          } else if constexpr (std::is_same_v<M, std::vector<int> S::*> ||
                               std::is_same_v<M, std::vector<int64_t> S::*>) {
            const std::vector<long long> v = reader.IntList(
                key, std::vector<long long>((s.*m).begin(), (s.*m).end()), f.int_lo, f.int_hi);
            (s.*m).assign(v.begin(), v.end());
          } else if constexpr (std::is_same_v<M, EnumRef<S>>) {
            m.assign(s, reader.Choice(key, m.name(s), m.names()));
          } else {
            m.read(s, reader, key);
          }
        },
        f.member);
  }
}

}  // namespace veletas::util
