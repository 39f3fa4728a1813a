#include "training/metrics.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/atomic_file.h"
#include "util/json.h"

namespace veletas::training {

const std::vector<std::string>& MetricsFieldNames() {
  static const std::vector<std::string> names = {"generation",
                                                 "step",
                                                 "steps",
                                                 "loss_total",
                                                 "loss_policy",
                                                 "loss_value",
                                                 "loss_aux",
                                                 "loss_l2",
                                                 "policy_entropy",
                                                 "policy_target_entropy",
                                                 "value_accuracy",
                                                 "loss_value_setup",
                                                 "loss_value_early",
                                                 "loss_value_late",
                                                 "learning_rate",
                                                 "samples_per_second",
                                                 "window_samples",
                                                 "time"};
  return names;
}

std::string MetricsToJson(const MetricsLine& m) {
  nlohmann::ordered_json j;
  j["generation"] = m.generation;
  j["step"] = m.step;
  j["steps"] = m.steps;
  j["loss_total"] = m.loss_total;
  j["loss_policy"] = m.loss_policy;
  j["loss_value"] = m.loss_value;
  j["loss_aux"] = m.loss_aux;
  j["loss_l2"] = m.loss_l2;
  j["policy_entropy"] = m.policy_entropy;
  j["policy_target_entropy"] = m.policy_target_entropy;
  j["value_accuracy"] = m.value_accuracy;
  j["loss_value_setup"] = m.loss_value_setup;
  j["loss_value_early"] = m.loss_value_early;
  j["loss_value_late"] = m.loss_value_late;
  j["learning_rate"] = m.learning_rate;
  j["samples_per_second"] = m.samples_per_second;
  j["window_samples"] = m.window_samples;
  j["time"] = m.time;
  return j.dump();
}

util::Status AppendMetrics(const std::string& path, const MetricsLine& line) {
  return util::AppendFile(path, MetricsToJson(line) + "\n");
}

util::Result<std::vector<MetricsLine>> ReadMetrics(const std::string& path) {
  const util::Result<std::string> read = util::ReadFile(path);
  if (!read) return read.error_value();
  return MetricsFromText(read.value(), path);
}

util::Result<std::vector<MetricsLine>> MetricsFromText(std::string_view all,
                                                       const std::string& path) {
  using R = util::Result<std::vector<MetricsLine>>;
  std::vector<MetricsLine> lines;
  int number = 0;
  for (size_t at = 0; at < all.size();) {
    ++number;
    const size_t end = std::min(all.find('\n', at), all.size());
    const std::string_view text = all.substr(at, end - at);
    at = end + 1;
    if (text.empty()) continue;
    const std::string where = path + ":" + std::to_string(number);
    const util::Result<nlohmann::json> parsed = util::ParseJson(text, where);
    if (!parsed) return parsed.error_value();
    util::JsonFields f(parsed.value(), "");
    MetricsLine m;
    m.generation = f.Integer<int64_t>("generation");
    m.step = f.Integer<int64_t>("step");
    m.steps = f.Integer<int64_t>("steps");
    m.loss_total = f.Number("loss_total");
    m.loss_policy = f.Number("loss_policy");
    m.loss_value = f.Number("loss_value");
    m.loss_aux = f.Number("loss_aux");
    m.loss_l2 = f.Number("loss_l2");
    m.policy_entropy = f.Number("policy_entropy");
    m.policy_target_entropy = f.Number("policy_target_entropy");
    m.value_accuracy = f.Number("value_accuracy");
    m.loss_value_setup = f.NumberOr("loss_value_setup", -1.0);  // absent before 2026-12
    m.loss_value_early = f.NumberOr("loss_value_early", -1.0);
    m.loss_value_late = f.NumberOr("loss_value_late", -1.0);
    m.learning_rate = f.Number("learning_rate");
    m.samples_per_second = f.Number("samples_per_second");
    m.window_samples = f.Integer<int64_t>("window_samples");
    m.time = f.Number("time");
    if (!f.ok()) return R::Error(where + ": bad metrics line: " + f.error());
    lines.push_back(m);
  }
  return lines;
}

}  // namespace veletas::training
