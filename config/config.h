// The run configuration: one YAML file with a section per layer. Each section's struct is
// owned by its layer (data with one table of settings, util/settings_table.h), or by config/
// for the layers above it (pipeline, cluster); config/config_<layer>.cpp reads the tables.
#pragma once

#include <span>
#include <string>

#include "arena/arena_settings.h"
#include "config/cluster_settings.h"
#include "config/config_reader.h"
#include "config/pipeline_settings.h"
#include "model/base/net_config.h"
#include "rules/position.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "training/training_config.h"
#include "util/result.h"

namespace veletas::config {

struct GameConfig {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;

  // The settings rules and size (config.cpp).
  static std::span<const util::Field<GameConfig>> Fields();
  // Ok when the size is a supported board size, else bad input naming it.
  util::Status Validate() const;
};

struct Config {
  std::string source;         // the file it was read from
  std::string resolved_yaml;  // every effective value, defaults included
  GameConfig game;
  model::NetConfig model;
  search::SearchConfig search;
  search::BatchingConfig evaluator;
  arena::ArenaSettings arena;
  selfplay::SelfplayConfig selfplay;
  training::TrainingConfig training;
  PipelineConfig pipeline;
  ClusterConfig cluster;  // cluster.redis empty: not a cluster run
};

// Reads and validates a config file. The error lists every error of the file (unknown keys,
// values of the wrong type or out of range), a line each naming the file, line, key and what
// was expected.
util::Result<Config> LoadConfig(const std::string& path);
// The same from YAML text (`source_name` appears in errors).
util::Result<Config> LoadConfigFromString(const std::string& text, const std::string& source_name);

// Section parsers, one per layer (config/config_<layer>.cpp). Each reads its struct's table
// (ReadSection), checks it and rejects unknown keys.
void ParseGameSection(ConfigSection& section, GameConfig& out);
void ParseModelSection(ConfigSection& section, model::NetConfig& out);
// config/config_search.cpp: sections `search` and `evaluator`.
void ParseSearchSection(ConfigSection& section, search::SearchConfig& out);
void ParseEvaluatorSection(ConfigSection& section, search::BatchingConfig& out);
// config/config_arena.cpp: section `arena` with nested `gate` and `ladder`.
void ParseArenaSection(ConfigSection& section, arena::ArenaSettings& out);
// config/config_selfplay.cpp: section `selfplay`.
void ParseSelfplaySection(ConfigSection& section, selfplay::SelfplayConfig& out);
// config/config_training.cpp: section `training`.
void ParseTrainingSection(ConfigSection& section, training::TrainingConfig& out);
// config/config_pipeline.cpp: section `pipeline`.
void ParsePipelineSection(ConfigSection& section, PipelineConfig& out);
// config/config_cluster.cpp: section `cluster` (docs/CLUSTER.md).
void ParseClusterSection(ConfigSection& section, ClusterConfig& out);

}  // namespace veletas::config
