#include "training/metrics.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "util/atomic_file.h"

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
  using R = util::Result<std::vector<MetricsLine>>;
  std::ifstream in(path);
  if (!in) return R::Error(path + ": cannot open metrics file: " + std::strerror(errno));
  std::vector<MetricsLine> lines;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.empty()) continue;
    try {
      const nlohmann::json j = nlohmann::json::parse(text);
      MetricsLine m;
      m.generation = j.at("generation").get<int64_t>();
      m.step = j.at("step").get<int64_t>();
      m.steps = j.at("steps").get<int64_t>();
      m.loss_total = j.at("loss_total").get<double>();
      m.loss_policy = j.at("loss_policy").get<double>();
      m.loss_value = j.at("loss_value").get<double>();
      m.loss_aux = j.at("loss_aux").get<double>();
      m.loss_l2 = j.at("loss_l2").get<double>();
      m.policy_entropy = j.at("policy_entropy").get<double>();
      m.policy_target_entropy = j.at("policy_target_entropy").get<double>();
      m.value_accuracy = j.at("value_accuracy").get<double>();
      m.loss_value_setup = j.value("loss_value_setup", -1.0);  // absent before 2026-12
      m.loss_value_early = j.value("loss_value_early", -1.0);
      m.loss_value_late = j.value("loss_value_late", -1.0);
      m.learning_rate = j.at("learning_rate").get<double>();
      m.samples_per_second = j.at("samples_per_second").get<double>();
      m.window_samples = j.at("window_samples").get<int64_t>();
      m.time = j.at("time").get<double>();
      lines.push_back(m);
    } catch (const std::exception& e) {
      return R::Error(path + ":" + std::to_string(number) + ": bad metrics line: " + e.what());
    }
  }
  return lines;
}

}  // namespace veletas::training
