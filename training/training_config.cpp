#include "training/training_config.h"

#include <string>

#include "util/settings_check.h"

namespace veletas::training {
namespace {

constexpr long long kMaxSteps = 1LL << 40;
constexpr long long kMaxSamples = 1LL << 34;

// OK when the boundaries increase, else bad input naming the first pair that does not.
util::Status Increasing(const std::vector<int64_t>& b) {
  for (size_t i = 1; i < b.size(); ++i) {
    if (b[i] <= b[i - 1]) {
      return util::Status::Error("steps must be increasing, got " + std::to_string(b[i - 1]) +
                                 " then " + std::to_string(b[i]));
    }
  }
  return util::Ok();
}

// value_loss: whether the value head is trained with cross-entropy.
constexpr util::Choice<bool> kValueLossChoices[] = {{false, "squared_error"},
                                                    {true, "cross_entropy"}};

using S = TrainingConfig;
using util::Ends;
const util::Field<S> kFields[] = {
    util::IntField("batch_size", &S::batch_size, 1, 65536, "samples per step"),
    util::EnumField<&S::optimizer, kOptimizerChoices>("optimizer", "sgd or adamw"),
    util::RealField("learning_rate", &S::learning_rate, 0.0, 10.0, "base learning rate",
                    Ends::kOpenLow),
    util::RealField("momentum", &S::momentum, 0.0, 1.0, "SGD momentum, AdamW beta1",
                    Ends::kOpenHigh),
    util::BoolField("nesterov", &S::nesterov, "Nesterov momentum (SGD)"),
    util::RealField("weight_decay", &S::weight_decay, 0.0, 1.0, "weight decay"),
    util::EnumField<&S::lr_schedule, kLrScheduleChoices>("lr_schedule", "constant, step or cosine"),
    util::IntListField("lr_step_boundaries", &S::lr_step_boundaries, 1, kMaxSteps,
                       "step schedule: steps where the rate drops (increasing)"),
    util::RealField("lr_step_gamma", &S::lr_step_gamma, 0.0, 1.0,
                    "step schedule: factor at each boundary", Ends::kOpenLow),
    util::IntField("lr_cosine_steps", &S::lr_cosine_steps, 1, kMaxSteps,
                   "cosine schedule: steps to lr_min"),
    util::RealField("lr_min", &S::lr_min, 0.0, 10.0, "cosine schedule: final rate"),
    util::IntField("warmup_steps", &S::warmup_steps, 0, kMaxSteps, "linear warm-up steps"),
    util::RealField("value_weight", &S::value_weight, 0.0, 100.0, "value loss weight"),
    util::EnumField<&S::value_cross_entropy, kValueLossChoices>("value_loss",
                                                                "squared_error or cross_entropy"),
    util::RealField("aux_weight", &S::aux_weight, 0.0, 100.0, "auxiliary loss weight"),
    util::RealField("root_value_weight", &S::root_value_weight, 0.0, 1.0,
                    "share of the root value in the value target"),
    util::BoolField("aux_ignore_resigned", &S::aux_ignore_resigned,
                    "no auxiliary target from resigned games"),
    util::IntField("window_min", &S::window_min, 1, kMaxSamples, "smallest replay window"),
    util::IntField("window_max", &S::window_max, 1, kMaxSamples, "largest replay window"),
    util::RealField("window_exponent", &S::window_exponent, 0.0, 1.0, "window growth exponent",
                    Ends::kOpenLow),
    util::RealField("window_growth", &S::window_growth, 0.0, 1.0, "window growth factor",
                    Ends::kOpenLow),
    util::RealField("max_sample_reuse", &S::max_sample_reuse, 0.0, 1000.0,
                    "times a sample is trained on, on average", Ends::kOpenLow),
    util::IntField("max_steps_per_generation", &S::max_steps_per_generation, 0, kMaxSteps,
                   "most steps per generation; 0 = no cap"),
    util::IntField("checkpoint_every", &S::checkpoint_every, 1, kMaxSteps,
                   "steps between training-state files"),
    util::IntField("metrics_every", &S::metrics_every, 1, kMaxSteps, "steps per metrics line"),
    util::EnumField<&S::precision, kTrainPrecisionChoices>("precision", "auto, fp32 or bf16"),
    util::EnumField<&S::engine, kTrainEngineChoices>("engine",
                                                     "training step: auto, onednn or torch"),
    util::IntField("threads", &S::threads, 0, 256, "Torch threads; 0 = all cores"),
    util::IntField("prefetch_batches", &S::prefetch_batches, 1, 64, "batches prepared ahead"),
    util::SeedField("seed", &S::seed, "sampling and augmentation seed"),
};

}  // namespace

std::span<const util::Field<TrainingConfig>> TrainingConfig::Fields() { return kFields; }

util::Status TrainingConfig::Validate() const {
  const util::Status order = Increasing(lr_step_boundaries);
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.That(!(optimizer == Optimizer::kSgd && nesterov && momentum <= 0), "nesterov",
         "needs a positive momentum")
      .That(order.ok(), "lr_step_boundaries", order.ok() ? "" : order.error())
      .That(lr_min <= learning_rate, "lr_min",
            util::FormatSetting(lr_min) + " is above learning_rate " +
                util::FormatSetting(learning_rate))
      .That(window_max >= window_min, "window_max",
            std::to_string(window_max) + " is below window_min " + std::to_string(window_min));
  return c.Result();
}

}  // namespace veletas::training
