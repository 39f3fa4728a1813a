#include "training/lr_schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace veletas::training {

double LearningRate(const TrainingConfig& c, int64_t step) {
  double rate = c.learning_rate;
  switch (c.lr_schedule) {
    case LrSchedule::kConstant:
      break;
    case LrSchedule::kStep:
      for (int64_t boundary : c.lr_step_boundaries) {
        if (step >= boundary) rate *= c.lr_step_gamma;
      }
      break;
    case LrSchedule::kCosine: {
      const double since = static_cast<double>(std::max<int64_t>(0, step - c.warmup_steps));
      const double t = c.lr_cosine_steps > 0
                           ? std::min(1.0, since / static_cast<double>(c.lr_cosine_steps))
                           : 1.0;
      rate = c.lr_min + (c.learning_rate - c.lr_min) * 0.5 * (1.0 + std::cos(std::numbers::pi * t));
      break;
    }
  }
  if (c.warmup_steps > 0 && step < c.warmup_steps) {
    rate *= static_cast<double>(step + 1) / static_cast<double>(c.warmup_steps);
  }
  return rate;
}

}  // namespace veletas::training
