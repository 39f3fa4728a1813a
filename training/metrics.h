// Training metrics: one JSON object per line in metrics.jsonl (one line per window of
// steps). Torch-free. (The app draws them: charts::DrawLossChart.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace veletas::training {

// One line of metrics.jsonl: averages over `steps` training steps ending at global step
// `step` (loss_l2 and learning_rate as at the last step of the window).
struct MetricsLine {
  int64_t generation = 0;
  int64_t step = 0;   // global training steps after the window
  int64_t steps = 0;  // steps averaged in this line
  double loss_policy = 0;
  double loss_value = 0;
  double loss_aux = 0;
  double loss_l2 = 0;  // weight_decay / 2 * sum of squared parameters
  double loss_total =
      0;  // loss_policy + value_weight * loss_value + aux_weight * loss_aux + loss_l2
  double policy_entropy = 0;         // of the network's policy over legal actions
  double policy_target_entropy = 0;  // of the targets (the floor of loss_policy)
  double value_accuracy = 0;         // fraction with sign(value) == sign(value target)
  // loss_value of the samples of each GamePhase (training/batch.h): setup decisions, early
  // and late play; -1 where the window had no sample of the phase (and in older files).
  double loss_value_setup = -1;
  double loss_value_early = -1;
  double loss_value_late = -1;
  double learning_rate = 0;
  double samples_per_second = 0;  // training samples per second of wall time in the window
  int64_t window_samples = 0;
  double time = 0;  // seconds since the epoch at the end of the window
};

// The field names of every line, in order.
const std::vector<std::string>& MetricsFieldNames();

// The line as compact JSON text (no newline).
std::string MetricsToJson(const MetricsLine& line);

// Appends the line and a newline to `path` (created if missing). The error names the file.
util::Status AppendMetrics(const std::string& path, const MetricsLine& line);

// Reads every line of a metrics file. Errors name the file and line.
util::Result<std::vector<MetricsLine>> ReadMetrics(const std::string& path);
// The same from the text of a metrics file (`path` names it in errors).
util::Result<std::vector<MetricsLine>> MetricsFromText(std::string_view text,
                                                       const std::string& path);

}  // namespace veletas::training
