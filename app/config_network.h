// Networks in the app. Every checkpoint the app plays with is loaded by
// model::NetworkEvaluator::Open: one read of the file, so that its metadata and its weights
// come from the same bytes, checked against what the command requires. The arena's players
// (model/network_pool.h) and the interactive commands (cli/interactive_player.h) state their own
// requirement; the commands that run a config's network use LoadConfigNetwork.
#pragma once

#include <optional>
#include <string>

#include "arena/player_options.h"
#include "cli/interactive_player.h"
#include "config/config.h"
#include "model/network_evaluator.h"
#include "model/network_pool.h"
#include "util/result.h"

namespace veletas::app {

// Loads checkpoint `ckpt` for the config's game (rules, size) and network architecture, on
// the config's device and thread count, with its metadata. Errors: bad input when the
// checkpoint is missing, truncated, corrupt or does not fit the config (naming both files),
// a failure when the device cannot run it.
util::Result<model::LoadedEvaluator> LoadConfigNetwork(const std::string& ckpt,
                                                       const config::Config& c);

// The networks of `models` as the arena's players open them (an arena::NetworkSource);
// `models` must outlive it.
arena::NetworkSource PoolNetworks(model::NetworkPool& models);

// The checkpoint `ckpt` opened for an interactive command (a cli::NetworkOpener).
util::Result<cli::PlayNetwork> OpenPlayNetwork(const std::string& ckpt,
                                               const model::ModelRequirement& need,
                                               const model::NetConfig& runtime);

// The network of `ckpt` as a spot check evaluates it (cluster/learner/spot_checker.h): on the CPU,
// at inference precision `precision` (a worker's; none, or kAuto: the
// config's, so that declaring nonsense escapes no check). nullptr where this machine cannot run
// that precision (it would differ by more than the tolerances). Errors as LoadConfigNetwork.
util::Result<std::unique_ptr<model::NetworkEvaluator>> LoadSpotCheckNetwork(
    const std::string& ckpt, const config::Config& c,
    std::optional<model::InferencePrecision> precision);

}  // namespace veletas::app
