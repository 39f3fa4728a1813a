// Networks in the app. Every checkpoint the app plays with is loaded by
// model::TorchEvaluator::Open: one read of the file, so that its metadata and its weights
// come from the same bytes, checked against what the command requires. The arena's players
// (model/network_pool.h) and the interactive commands (app/interactive_player.h) state their own
// requirement; the commands that run a config's network use LoadConfigNetwork.
#pragma once

#include <string>

#include "config/config.h"
#include "model/torch_evaluator.h"
#include "util/result.h"

namespace veletas::app {

// Loads checkpoint `ckpt` for the config's game (rules, size) and network architecture, on
// the config's device and thread count, with its metadata. Errors: bad input when the
// checkpoint is missing, truncated, corrupt or does not fit the config (naming both files),
// a failure when the device cannot run it.
util::Result<model::LoadedEvaluator> LoadConfigNetwork(const std::string& ckpt,
                                                       const config::Config& c);

}  // namespace veletas::app
