// A training request from a config's settings, and a training call in words: what
// `veletas train` and the pipeline's trainer (app/pipeline_services.h) share.
#pragma once

#include <string>
#include <vector>

#include "training/trainer.h"

namespace veletas::training {

// The request to train `input` on the sample directories `data` into `output` with the
// training settings `config`, the checkpoints' game and architecture `spec` and the model
// section's `device`; the other fields keep their defaults (the input's generation + 1,
// steps from the sample-reuse limit, metrics beside the output, no callbacks).
TrainRequest MakeTrainRequest(const TrainingConfig& config, const model::ModelSpec& spec,
                              model::Device device, std::string input,
                              std::vector<std::string> data, std::string output);

// The text of a progress line: "gen G step S/N (global G) loss ... lr ... samples/s ETA T".
std::string TrainProgressText(const TrainProgress& p);

// What a finished call did, as `veletas train` prints it for the checkpoint `out`: the
// generation, steps, losses, files and samples, speed and time (or that it was already
// trained), and how many sample files were skipped. Ends with a newline.
std::string TrainStatsText(const TrainStats& s, const std::string& out);

}  // namespace veletas::training
