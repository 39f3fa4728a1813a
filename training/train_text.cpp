#include "training/train_text.h"

#include <fmt/format.h>

#include <utility>

#include "util/text.h"

namespace veletas::training {

TrainRequest MakeTrainRequest(const TrainingConfig& config, const model::ModelSpec& spec,
                              model::Device device, std::string input,
                              std::vector<std::string> data, std::string output) {
  TrainRequest r;
  r.config = config;
  r.spec = spec;
  r.device = device;
  r.input_checkpoint = std::move(input);
  r.data = std::move(data);
  r.output_checkpoint = std::move(output);
  return r;
}

std::string TrainProgressText(const TrainProgress& p) {
  return fmt::format(
      "gen {} step {}/{} (global {}) loss {:.4f} (policy {:.4f} value {:.4f} aux {:.4f}) lr "
      "{:.3g} {:.0f} samples/s ETA {}",
      p.generation, p.step, p.steps, p.global_step, p.loss_total, p.loss_policy, p.loss_value,
      p.loss_aux, p.learning_rate, p.samples_per_second, util::FormatDuration(p.eta_seconds));
}

std::string TrainStatsText(const TrainStats& s, const std::string& out) {
  if (s.already_done) {
    return fmt::format("{}: generation {} already trained from this input ({} steps)\n", out,
                       s.generation, s.steps);
  }
  std::string text = fmt::format(
      "{}: generation {}, {} steps (global {}){}; loss {:.4f} (policy {:.4f} value {:.4f} aux "
      "{:.4f} l2 {:.4f}); {} new files, {} new samples, window {} of {} samples; {:.0f} "
      "samples/s; {:.1f} s\n",
      out, s.generation, s.steps, s.global_steps,
      s.resumed ? " resumed at step " + std::to_string(s.resumed_from_step) : std::string(),
      s.loss_total, s.loss_policy, s.loss_value, s.loss_aux, s.loss_l2, s.new_files, s.new_samples,
      s.window_samples, s.total_samples, s.loop_samples_per_second, s.seconds);
  if (!s.skipped.empty()) {
    text += fmt::format("{} sample file(s) skipped (see above)\n", s.skipped.size());
  }
  return text;
}

}  // namespace veletas::training
