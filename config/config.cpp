#include "config/config.h"

#include "rules/notation.h"
#include "util/settings_check.h"

namespace veletas::config {
namespace {

// Parses the section `key` of `root` (an empty one when absent) with `parse`.
template <typename T>
void ParseSection(ConfigSection& root, const char* key, void (*parse)(ConfigSection&, T&), T& out) {
  ConfigSection s = root.Section(key);
  parse(s, out);
}

Config ParseSections(ConfigSection& root, const std::string& source) {
  Config c;
  c.source = source;
  ParseSection(root, "game", ParseGameSection, c.game);
  ParseSection(root, "model", ParseModelSection, c.model);
  ParseSection(root, "search", ParseSearchSection, c.search);
  ParseSection(root, "evaluator", ParseEvaluatorSection, c.evaluator);
  ParseSection(root, "arena", ParseArenaSection, c.arena);
  ParseSection(root, "selfplay", ParseSelfplaySection, c.selfplay);
  ParseSection(root, "training", ParseTrainingSection, c.training);
  ParseSection(root, "pipeline", ParsePipelineSection, c.pipeline);
  // Only a cluster run has the section (and shows it in its resolved config).
  if (root.Has("cluster")) ParseSection(root, "cluster", ParseClusterSection, c.cluster);
  root.RejectUnknownKeys();
  c.resolved_yaml = root.ResolvedYaml();
  return c;
}

// The config of `root`; an error lists every error of the file (unknown keys, bad values),
// and an error of the file's structure found while reading follows those found before it.
Config Parse(ConfigSection root, const std::string& source) {
  try {
    return ParseSections(root, source);
  } catch (const ConfigError& e) {
    const std::string found = root.ErrorsText();
    if (found.empty() || found == e.what()) throw;
    throw ConfigError(found + "\n" + e.what());
  }
}

}  // namespace

namespace {

const util::Choice<rules::RuleSet> kRuleSetChoices[] = {
    {rules::RuleSet::kStandard, rules::RuleSetName(rules::RuleSet::kStandard)},
    {rules::RuleSet::kClassic, rules::RuleSetName(rules::RuleSet::kClassic)}};

const util::Field<GameConfig> kGameFields[] = {
    util::EnumField<&GameConfig::rules, kRuleSetChoices>("rules", "standard or classic"),
    util::IntField("size", &GameConfig::size, 7, 10, "board size: 7, 9 or 10"),
};

}  // namespace

std::span<const util::Field<GameConfig>> GameConfig::Fields() { return kGameFields; }

util::Status GameConfig::Validate() const {
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.That(rules::IsSupportedSize(size), "size",
         std::to_string(size) + " is not a board size (7, 9 or 10)");
  return c.Result();
}

void ParseGameSection(ConfigSection& s, GameConfig& out) { ReadSection(s, out); }

void ParseModelSection(ConfigSection& s, model::NetConfig& out) { ReadSection(s, out); }

util::Result<Config> LoadConfig(const std::string& path) {
  try {
    return Parse(ConfigSection::LoadFile(path), path);
  } catch (const ConfigError& e) {
    return util::Result<Config>::Error(e.what());
  } catch (const std::exception& e) {
    // What the YAML library still throws (none known): bad input all the same.
    return util::Result<Config>::Error(path + ": cannot read the config: " + e.what());
  }
}

util::Result<Config> LoadConfigFromString(const std::string& text, const std::string& source_name) {
  try {
    return Parse(ConfigSection::LoadString(text, source_name), source_name);
  } catch (const ConfigError& e) {
    return util::Result<Config>::Error(e.what());
  } catch (const std::exception& e) {
    return util::Result<Config>::Error(source_name + ": cannot read the config: " + e.what());
  }
}

}  // namespace veletas::config
