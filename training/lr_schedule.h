// The learning rate as a function of the global training step (training/training_config.h).
// Torch-free, pure, thread-safe.
#pragma once

#include <cstdint>

#include "training/training_config.h"

namespace veletas::training {

// The rate for global step `step` (0-based: the step about to be taken):
//   base(s) = learning_rate                                        (constant)
//           = learning_rate * lr_step_gamma^(boundaries <= s)       (step)
//           = lr_min + (learning_rate - lr_min) * (1 + cos(pi * t)) / 2,
//             t = min(1, max(0, s - warmup_steps) / lr_cosine_steps)   (cosine)
//   rate(s) = base(s) * min(1, (s + 1) / warmup_steps)   (warm-up; none when warmup_steps = 0)
double LearningRate(const TrainingConfig& config, int64_t step);

}  // namespace veletas::training
