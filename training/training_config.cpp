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

}  // namespace

util::Status TrainingConfig::Validate() const {
  using util::Ends;
  const util::Status order = Increasing(lr_step_boundaries);
  util::SettingsCheck c;
  c.Int("batch_size", batch_size, 1, 65536)
      .Real("learning_rate", learning_rate, 0.0, 10.0, Ends::kOpenLow)
      .Real("momentum", momentum, 0.0, 1.0, Ends::kOpenHigh)
      .Real("weight_decay", weight_decay, 0.0, 1.0)
      .That(!(optimizer == Optimizer::kSgd && nesterov && momentum <= 0), "nesterov",
            "needs a positive momentum")
      .IntList("lr_step_boundaries",
               std::vector<long long>(lr_step_boundaries.begin(), lr_step_boundaries.end()), 1,
               kMaxSteps)
      .That(order.ok(), "lr_step_boundaries", order.ok() ? "" : order.error())
      .Real("lr_step_gamma", lr_step_gamma, 0.0, 1.0, Ends::kOpenLow)
      .Int("lr_cosine_steps", lr_cosine_steps, 1, kMaxSteps)
      .Real("lr_min", lr_min, 0.0, 10.0)
      .That(lr_min <= learning_rate, "lr_min",
            util::FormatSetting(lr_min) + " is above learning_rate " +
                util::FormatSetting(learning_rate))
      .Int("warmup_steps", warmup_steps, 0, kMaxSteps)
      .Real("value_weight", value_weight, 0.0, 100.0)
      .Real("aux_weight", aux_weight, 0.0, 100.0)
      .Real("root_value_weight", root_value_weight, 0.0, 1.0)
      .Int("window_min", window_min, 1, kMaxSamples)
      .Int("window_max", window_max, 1, kMaxSamples)
      .That(window_max >= window_min, "window_max",
            std::to_string(window_max) + " is below window_min " + std::to_string(window_min))
      .Real("window_exponent", window_exponent, 0.0, 1.0, Ends::kOpenLow)
      .Real("window_growth", window_growth, 0.0, 1.0, Ends::kOpenLow)
      .Real("max_sample_reuse", max_sample_reuse, 0.0, 1000.0, Ends::kOpenLow)
      .Int("max_steps_per_generation", max_steps_per_generation, 0, kMaxSteps)
      .Int("checkpoint_every", checkpoint_every, 1, kMaxSteps)
      .Int("metrics_every", metrics_every, 1, kMaxSteps)
      .Int("threads", threads, 0, 256)
      .Int("prefetch_batches", prefetch_batches, 1, 64);
  return c.Result();
}

}  // namespace veletas::training
