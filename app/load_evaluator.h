// Loading a network checkpoint for a command, checked against the run's config.
#pragma once

#include <memory>
#include <string>

#include "app/config.h"
#include "model/checkpoint_file.h"
#include "model/torch_evaluator.h"

namespace veletas::app {

// Loads checkpoint `ckpt` as an evaluator for the config's game (rules, size) and network
// architecture, on the config's device and thread count. On failure prints
// "veletas <command>: <error>" to stderr, sets `code` (2: bad input, i.e. the checkpoint is
// missing, truncated, corrupt or does not fit the config, naming both files; 1: anything
// else) and returns null. When `meta` is given, it receives the checkpoint's metadata.
std::unique_ptr<model::TorchEvaluator> LoadEvaluator(const std::string& command,
                                                     const std::string& ckpt, const Config& c,
                                                     int& code,
                                                     model::CheckpointMeta* meta = nullptr);

// A freshly initialised network (seed 1) of the config's architecture, device and threads;
// on failure prints "veletas <command>: <error>", sets `code` to 1 and returns null.
std::unique_ptr<model::TorchEvaluator> FreshEvaluator(const std::string& command, const Config& c,
                                                      int& code);

// "standard 7x7".
std::string GameName(const Config& c);

}  // namespace veletas::app
