#include "config/config_reader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "util/atomic_file.h"

#include "util/settings_check.h"
#include "util/text.h"

namespace veletas::config {

struct ConfigSection::State {
  struct Error {
    int line = 1;
    std::string key_path;  // "search.simulations"; "" for an error of a whole section
    std::string text;      // "<file>:<line>: ..."
  };
  std::string file;
  YAML::Node resolved_root;
  std::vector<Error> errors;              // every error of the file found so far
  std::unordered_set<std::string> keyed;  // the key paths of `errors`
};

namespace {

std::string Join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// The shortest text that reads back as exactly x ("0.9", not "0.90000000000000002").
std::string Format(double x) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(x);
}

// Throws ConfigError naming the file and line of the first key of the mapping `node` that is
// not a plain scalar, e.g. `[a, b]: 1`. `path` is the mapping's section ("" for the root).
void CheckKeys(const YAML::Node& node, const std::string& source, const std::string& path) {
  if (!node.IsMap()) return;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it->first.IsScalar()) continue;
    throw ConfigError(source + ":" + std::to_string(it->first.Mark().line + 1) + ": " +
                      (path.empty() ? std::string("a key") : "a key of " + path) +
                      " is not a word (expected a key such as \"size\", got a " +
                      (it->first.IsSequence() ? "list"
                       : it->first.IsMap()    ? "mapping"
                                              : "null") +
                      ")");
  }
}

}  // namespace

ConfigSection::ConfigSection(std::shared_ptr<State> state, std::unique_ptr<YAML::Node> node,
                             std::unique_ptr<YAML::Node> resolved, std::string path)
    : state_(std::move(state)),
      node_(std::move(node)),
      resolved_(std::move(resolved)),
      path_(std::move(path)) {
  // Only the mappings a section is made of are read by key; their keys must be words.
  CheckKeys(*node_, state_->file, path_);
}

ConfigSection::~ConfigSection() = default;
ConfigSection::ConfigSection(ConfigSection&&) noexcept = default;

ConfigSection ConfigSection::LoadString(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ": invalid YAML: " + e.msg);
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) throw ConfigError(source + ":1: expected a mapping of sections");
  auto state = std::make_shared<State>();
  state->file = source;
  state->resolved_root = YAML::Node(YAML::NodeType::Map);
  return ConfigSection(state, std::make_unique<YAML::Node>(root),
                       std::make_unique<YAML::Node>(state->resolved_root), "");
}

ConfigSection ConfigSection::LoadFile(const std::string& path) {
  const util::Result<std::string> text = util::ReadFile(path, kMaxConfigBytes);
  if (!text) throw ConfigError(text.error() + " (the config file)");
  return LoadString(text.value(), path);
}

int ConfigSection::LineOf(const std::string& key) const {
  int line = 0;
  if (node_->IsMap()) {
    for (auto it = node_->begin(); it != node_->end(); ++it) {
      if (it->first.Scalar() == key) line = it->first.Mark().line + 1;
    }
  }
  if (line == 0 && node_->Mark().line >= 0) line = node_->Mark().line + 1;
  return std::max(line, 1);
}

std::string ConfigSection::Where(const std::string& key) const {
  return state_->file + ":" + std::to_string(LineOf(key)) + ": " + Join(path_, key) + ": ";
}

void ConfigSection::Record(int line, const std::string& key_path, std::string text) const {
  if (!key_path.empty() && !state_->keyed.insert(key_path).second) return;
  state_->errors.push_back({line, key_path, std::move(text)});
}

void ConfigSection::Fail(const std::string& key, const std::string& what) const {
  Record(LineOf(key), Join(path_, key), Where(key) + what);
}

const YAML::Node* ConfigSection::Lookup(const std::string& key) {
  used_.push_back(key);
  if (!node_->IsMap()) return nullptr;
  for (auto it = node_->begin(); it != node_->end(); ++it) {
    if (it->first.Scalar() == key) {
      if (it->second.IsNull()) return nullptr;
      static thread_local YAML::Node found;
      found.reset(it->second);
      return &found;
    }
  }
  return nullptr;
}

namespace {

// The integer `text` spells exactly ("12", "-3"), or nothing.
std::optional<long long> ParseInteger(const std::string& text) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used == 0 || used != text.size()) return std::nullopt;
  return v;
}

std::string RangeText(long long v, long long lo, long long hi) {
  return std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "]";
}

}  // namespace

long long ConfigSection::Int(const std::string& key, long long fallback, long long lo,
                             long long hi) {
  long long v = fallback;
  if (const YAML::Node* n = Lookup(key)) {
    const std::string text = n->IsScalar() ? n->Scalar() : "";
    const std::optional<long long> parsed = ParseInteger(text);
    if (!n->IsScalar() || !parsed) {
      Fail(key,
           n->IsScalar() ? "expected an integer, got \"" + text + "\"" : "expected an integer");
      return fallback;
    }
    v = *parsed;
  }
  if (v < lo || v > hi) {
    Fail(key, RangeText(v, lo, hi));
    return fallback;
  }
  (*resolved_)[key] = v;
  return v;
}

double ConfigSection::Real(const std::string& key, double fallback) {
  double v = fallback;
  if (const YAML::Node* n = Lookup(key)) {
    if (!n->IsScalar()) {
      Fail(key, "expected a number");
      return fallback;
    }
    const std::string text = n->Scalar();
    size_t used = 0;
    try {
      v = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(v)) {
      Fail(key, "expected a number, got \"" + text + "\"");
      return fallback;
    }
  }
  (*resolved_)[key] = Format(v);
  return v;
}

float ConfigSection::Float(const std::string& key, float fallback) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text - 1, fallback);
  *(ec == std::errc() ? end : text) = '\0';
  const double shortest = ec == std::errc() ? std::strtod(text, nullptr) : fallback;
  return static_cast<float>(Real(key, shortest));
}

void ConfigSection::Check(const util::Status& status) const {
  if (status.ok()) return;
  std::istringstream lines(status.error());
  for (std::string message; std::getline(lines, message);) {
    if (message.empty()) continue;
    const std::string_view key = util::SettingKey(message);
    if (key.empty()) {
      const int line = node_->Mark().line >= 0 ? node_->Mark().line + 1 : 1;
      Record(line, "",
             state_->file + ":" + std::to_string(line) + ": " +
                 (path_.empty() ? "" : path_ + ": ") + message);
    } else {
      Fail(std::string(key), message.substr(key.size() + 2));
    }
  }
}

bool ConfigSection::Bool(const std::string& key, bool fallback) {
  bool v = fallback;
  if (const YAML::Node* n = Lookup(key)) {
    const std::string text = n->IsScalar() ? n->Scalar() : "";
    if (text == "true") {
      v = true;
    } else if (text == "false") {
      v = false;
    } else {
      Fail(key, "expected true or false, got \"" + text + "\"");
      return fallback;
    }
  }
  (*resolved_)[key] = v;
  return v;
}

std::string ConfigSection::Choice(const std::string& key, const std::string& fallback,
                                  const std::vector<std::string>& allowed) {
  std::string v = fallback;
  if (const YAML::Node* n = Lookup(key)) {
    if (!n->IsScalar()) {
      Fail(key, "expected a word");
      return fallback;
    }
    v = n->Scalar();
  }
  bool ok = false;
  std::string list;
  for (const std::string& a : allowed) {
    if (v == a) ok = true;
    list += (list.empty() ? "" : ", ") + a;
  }
  if (!ok) {
    Fail(key, "\"" + v + "\" is not one of: " + list);
    return fallback;
  }
  (*resolved_)[key] = v;
  return v;
}

std::string ConfigSection::String(const std::string& key, const std::string& fallback) {
  std::string v = fallback;
  if (const YAML::Node* n = Lookup(key)) {
    if (!n->IsScalar()) {
      Fail(key, "expected a string");
      return fallback;
    }
    v = n->Scalar();
  }
  (*resolved_)[key] = v;
  return v;
}

std::vector<long long> ConfigSection::IntList(const std::string& key,
                                              const std::vector<long long>& fallback, long long lo,
                                              long long hi) {
  std::vector<long long> v = fallback;
  if (const YAML::Node* n = Lookup(key)) {
    if (!n->IsSequence()) {
      Fail(key, "expected a list of integers");
      return fallback;
    }
    v.clear();
    for (const YAML::Node& item : *n) {
      const std::string text = item.IsScalar() ? item.Scalar() : "";
      const std::optional<long long> x = ParseInteger(text);
      if (!x) {
        Fail(key, "expected integers, got \"" + text + "\"");
        return fallback;
      }
      v.push_back(*x);
    }
  }
  for (long long x : v) {
    if (x < lo || x > hi) {
      Fail(key, RangeText(x, lo, hi));
      return fallback;
    }
  }
  YAML::Node list(YAML::NodeType::Sequence);
  for (long long x : v) list.push_back(x);
  (*resolved_)[key] = list;
  return v;
}

bool ConfigSection::Has(const std::string& key) const {
  if (!node_->IsMap()) return false;
  for (auto it = node_->begin(); it != node_->end(); ++it) {
    if (it->first.as<std::string>() == key) return !it->second.IsNull();
  }
  return false;
}

ConfigSection ConfigSection::Section(const std::string& key) {
  YAML::Node child(YAML::NodeType::Map);
  if (const YAML::Node* n = Lookup(key)) {
    if (n->IsMap()) {
      child = *n;
    } else {
      Fail(key, "expected a mapping");
    }
  }
  (*resolved_)[key] = YAML::Node(YAML::NodeType::Map);
  YAML::Node resolved_child = (*resolved_)[key];
  return ConfigSection(state_, std::make_unique<YAML::Node>(child),
                       std::make_unique<YAML::Node>(resolved_child), Join(path_, key));
}

std::unique_ptr<util::SettingsReader> ConfigSection::Nested(const std::string& key) {
  return std::make_unique<ConfigSection>(Section(key));
}

void ConfigSection::RejectUnknownKeys() {
  if (node_->IsMap()) {
    for (auto it = node_->begin(); it != node_->end(); ++it) {
      const std::string key = it->first.Scalar();
      if (std::find(used_.begin(), used_.end(), key) != used_.end()) continue;
      const std::string near = util::ClosestName(key, used_);
      const int line = it->first.Mark().line + 1;
      Record(line, Join(path_, key),
             state_->file + ":" + std::to_string(line) + ": unknown key \"" + Join(path_, key) +
                 "\"" + (near.empty() ? "" : " (did you mean \"" + Join(path_, near) + "\"?)"));
    }
  }
  if (path_.empty() && !state_->errors.empty()) throw ConfigError(ErrorsText());
}

std::string ConfigSection::ErrorsText() const {
  std::vector<State::Error> errors = state_->errors;
  std::stable_sort(errors.begin(), errors.end(),
                   [](const State::Error& a, const State::Error& b) { return a.line < b.line; });
  std::string out;
  const size_t n = errors.size();
  for (size_t i = 0; i < n && i < kMaxConfigErrorsListed; ++i) {
    out += (out.empty() ? "" : "\n") + errors[i].text;
  }
  if (n > kMaxConfigErrorsListed) {
    out += "\n(and " + std::to_string(n - kMaxConfigErrorsListed) + " more errors)";
  }
  return out;
}

std::string ConfigSection::ResolvedYaml() const {
  YAML::Emitter out;
  out << state_->resolved_root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace veletas::config
