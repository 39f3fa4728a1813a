// Section `training` (training::TrainingConfig): the keys, ranges and help are the struct's
// table (training/training_config.cpp).
#include "config/config.h"

namespace veletas::config {

void ParseTrainingSection(ConfigSection& s, training::TrainingConfig& out) { ReadSection(s, out); }

}  // namespace veletas::config
