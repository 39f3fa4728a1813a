// YAML mapping of the learner's settings: section `training` (training::TrainingConfig). The
// ranges are TrainingConfig::Validate().
#include <string>

#include "config/config.h"
#include "training/train_precision.h"

namespace veletas::config {
void ParseTrainingSection(ConfigSection& s, training::TrainingConfig& out) {
  using training::LrSchedule;
  using training::Optimizer;
  out.batch_size = s.SmallInt("batch_size", out.batch_size);
  out.optimizer = s.Choice("optimizer", out.optimizer == Optimizer::kAdamW ? "adamw" : "sgd",
                           {"sgd", "adamw"}) == "adamw"
                      ? Optimizer::kAdamW
                      : Optimizer::kSgd;
  out.learning_rate = s.Real("learning_rate", out.learning_rate);
  out.momentum = s.Real("momentum", out.momentum);
  out.nesterov = s.Bool("nesterov", out.nesterov);
  out.weight_decay = s.Real("weight_decay", out.weight_decay);

  const char* schedule = out.lr_schedule == LrSchedule::kStep     ? "step"
                         : out.lr_schedule == LrSchedule::kCosine ? "cosine"
                                                                  : "constant";
  const std::string chosen = s.Choice("lr_schedule", schedule, {"constant", "step", "cosine"});
  out.lr_schedule = chosen == "step"     ? LrSchedule::kStep
                    : chosen == "cosine" ? LrSchedule::kCosine
                                         : LrSchedule::kConstant;
  const std::vector<long long> boundaries = s.IntList(
      "lr_step_boundaries",
      std::vector<long long>(out.lr_step_boundaries.begin(), out.lr_step_boundaries.end()));
  out.lr_step_boundaries.assign(boundaries.begin(), boundaries.end());
  out.lr_step_gamma = s.Real("lr_step_gamma", out.lr_step_gamma);
  out.lr_cosine_steps = s.Int("lr_cosine_steps", out.lr_cosine_steps);
  out.lr_min = s.Real("lr_min", out.lr_min);
  out.warmup_steps = s.Int("warmup_steps", out.warmup_steps);

  out.value_weight = s.Real("value_weight", out.value_weight);
  out.value_cross_entropy =
      s.Choice("value_loss", out.value_cross_entropy ? "cross_entropy" : "squared_error",
               {"squared_error", "cross_entropy"}) == "cross_entropy";
  out.aux_weight = s.Real("aux_weight", out.aux_weight);
  out.root_value_weight = s.Real("root_value_weight", out.root_value_weight);
  out.aux_ignore_resigned = s.Bool("aux_ignore_resigned", out.aux_ignore_resigned);

  out.window_min = s.Int("window_min", out.window_min);
  out.window_max = s.Int("window_max", out.window_max);
  out.window_exponent = s.Real("window_exponent", out.window_exponent);
  out.window_growth = s.Real("window_growth", out.window_growth);
  out.max_sample_reuse = s.Real("max_sample_reuse", out.max_sample_reuse);
  out.max_steps_per_generation = s.Int("max_steps_per_generation", out.max_steps_per_generation);
  out.checkpoint_every = s.Int("checkpoint_every", out.checkpoint_every);
  out.metrics_every = s.Int("metrics_every", out.metrics_every);
  out.precision =
      s.Choice("precision", TrainPrecisionName(out.precision), {"fp32", "bf16"}) == "bf16"
          ? training::TrainPrecision::kBf16
          : training::TrainPrecision::kFp32;
  out.threads = s.SmallInt("threads", out.threads);
  out.prefetch_batches = s.SmallInt("prefetch_batches", out.prefetch_batches);
  out.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(out.seed), 0, (1LL << 62)));
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
