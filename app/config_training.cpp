// YAML mapping of the learner's settings: section `training` (training::TrainingConfig).
#include <string>

#include "app/config.h"

namespace veletas::app {
void ParseTrainingSection(ConfigSection& s, training::TrainingConfig& out) {
  using training::LrSchedule;
  using training::Optimizer;
  out.batch_size = static_cast<int>(s.Int("batch_size", out.batch_size, 1, 65536));
  out.optimizer = s.Choice("optimizer", out.optimizer == Optimizer::kAdamW ? "adamw" : "sgd",
                           {"sgd", "adamw"}) == "adamw"
                      ? Optimizer::kAdamW
                      : Optimizer::kSgd;
  out.learning_rate = s.Real("learning_rate", out.learning_rate, 1e-9, 10.0);
  out.momentum = s.Real("momentum", out.momentum, 0.0, 0.999);
  out.nesterov = s.Bool("nesterov", out.nesterov);
  out.weight_decay = s.Real("weight_decay", out.weight_decay, 0.0, 1.0);

  const char* schedule = out.lr_schedule == LrSchedule::kStep     ? "step"
                         : out.lr_schedule == LrSchedule::kCosine ? "cosine"
                                                                  : "constant";
  const std::string chosen = s.Choice("lr_schedule", schedule, {"constant", "step", "cosine"});
  out.lr_schedule = chosen == "step"     ? LrSchedule::kStep
                    : chosen == "cosine" ? LrSchedule::kCosine
                                         : LrSchedule::kConstant;
  const std::vector<long long> boundaries = s.IntList(
      "lr_step_boundaries",
      std::vector<long long>(out.lr_step_boundaries.begin(), out.lr_step_boundaries.end()), 1,
      1LL << 40);
  for (size_t i = 1; i < boundaries.size(); ++i) {
    if (boundaries[i] <= boundaries[i - 1]) {
      throw ConfigError(s.Where("lr_step_boundaries") + "steps must be increasing, got " +
                        std::to_string(boundaries[i - 1]) + " then " +
                        std::to_string(boundaries[i]));
    }
  }
  out.lr_step_boundaries.assign(boundaries.begin(), boundaries.end());
  out.lr_step_gamma = s.Real("lr_step_gamma", out.lr_step_gamma, 1e-6, 1.0);
  out.lr_cosine_steps = s.Int("lr_cosine_steps", out.lr_cosine_steps, 1, 1LL << 40);
  out.lr_min = s.Real("lr_min", out.lr_min, 0.0, 10.0);
  if (out.lr_min > out.learning_rate) {
    throw ConfigError(s.Where("lr_min") + std::to_string(out.lr_min) + " is above learning_rate " +
                      std::to_string(out.learning_rate));
  }
  out.warmup_steps = s.Int("warmup_steps", out.warmup_steps, 0, 1LL << 40);
  if (out.optimizer == Optimizer::kSgd && out.nesterov && out.momentum <= 0) {
    throw ConfigError(s.Where("nesterov") + "needs a positive momentum");
  }

  out.value_weight = s.Real("value_weight", out.value_weight, 0.0, 100.0);
  out.aux_weight = s.Real("aux_weight", out.aux_weight, 0.0, 100.0);
  out.root_value_weight = s.Real("root_value_weight", out.root_value_weight, 0.0, 1.0);

  out.window_min = s.Int("window_min", out.window_min, 1, 1LL << 34);
  out.window_max = s.Int("window_max", out.window_max, 1, 1LL << 34);
  if (out.window_max < out.window_min) {
    throw ConfigError(s.Where("window_max") + std::to_string(out.window_max) +
                      " is below window_min " + std::to_string(out.window_min));
  }
  out.window_exponent = s.Real("window_exponent", out.window_exponent, 0.01, 1.0);
  out.window_growth = s.Real("window_growth", out.window_growth, 0.001, 1.0);
  out.max_sample_reuse = s.Real("max_sample_reuse", out.max_sample_reuse, 0.001, 1000.0);
  out.max_steps_per_generation =
      s.Int("max_steps_per_generation", out.max_steps_per_generation, 0, 1LL << 40);
  out.checkpoint_every = s.Int("checkpoint_every", out.checkpoint_every, 1, 1LL << 40);
  out.metrics_every = s.Int("metrics_every", out.metrics_every, 1, 1LL << 40);
  out.threads = static_cast<int>(s.Int("threads", out.threads, 0, 256));
  out.prefetch_batches = static_cast<int>(s.Int("prefetch_batches", out.prefetch_batches, 1, 64));
  out.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(out.seed), 0, (1LL << 62)));
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
