#include "config/config.h"

namespace veletas::config {
namespace {

// Parses the section `key` of `root` (an empty one when absent) with `parse`.
template <typename T>
void ParseSection(ConfigSection& root, const char* key, void (*parse)(ConfigSection&, T&), T& out) {
  ConfigSection s = root.Section(key);
  parse(s, out);
}

Config Parse(ConfigSection root, const std::string& source) {
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

}  // namespace

void ParseGameSection(ConfigSection& s, GameConfig& out) {
  out.rules = s.Choice("rules", "standard", {"standard", "classic"}) == "classic"
                  ? rules::RuleSet::kClassic
                  : rules::RuleSet::kStandard;
  const long long size = s.Int("size", out.size, 7, 10);
  if (!rules::IsSupportedSize(static_cast<int>(size))) {
    throw ConfigError(s.Where("size") + std::to_string(size) + " is not a board size (7, 9 or 10)");
  }
  out.size = static_cast<int>(size);
  s.RejectUnknownKeys();
}

void ParseModelSection(ConfigSection& s, model::NetConfig& out) {
  out.blocks = static_cast<int>(s.Int("blocks", out.blocks, 1, 40));
  out.channels = static_cast<int>(s.Int("channels", out.channels, 8, 512));
  out.head_channels = static_cast<int>(s.Int("head_channels", out.head_channels, 1, 256));
  out.value_hidden = static_cast<int>(s.Int("value_hidden", out.value_hidden, 1, 1024));
  out.device = s.Choice("device", out.device, {"cpu", "cuda", "auto"});
  out.threads = static_cast<int>(s.Int("threads", out.threads, 0, 256));
  out.inference_precision = s.Choice("inference_precision", out.inference_precision,
                                     {"auto", "fp32", "bf16", "int8", "torch"});
  s.RejectUnknownKeys();
}

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
