#include "training/call_plan.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "util/json.h"

namespace veletas::training {

std::string CallPlanToJson(const CallPlan& p) {
  nlohmann::json j;
  j["input_fingerprint"] = p.input_fingerprint;
  j["generation"] = p.generation;
  j["start_step"] = p.start_step;
  j["steps"] = p.steps;
  j["steps_done"] = p.steps_done;
  j["first_batch"] = p.first_batch;
  j["seed"] = p.seed;
  j["metrics_offset"] = p.metrics_offset;
  j["new_files"] = p.new_files;
  j["new_samples"] = p.new_samples;
  j["window_samples"] = p.window_samples;
  j["complete"] = p.complete;
  return j.dump();
}

util::Result<CallPlan> CallPlanFromJson(const std::string& text, const std::string& source) {
  using R = util::Result<CallPlan>;
  const util::Result<nlohmann::json> parsed =
      util::ParseJson(text, source + ": training call plan");
  if (!parsed) return parsed.error_value();
  util::JsonFields f(parsed.value(), "");
  CallPlan p;
  p.input_fingerprint = f.String("input_fingerprint");
  p.generation = f.Integer<int64_t>("generation");
  p.start_step = f.Integer<int64_t>("start_step");
  p.steps = f.Integer<int64_t>("steps");
  p.steps_done = f.Integer<int64_t>("steps_done");
  p.first_batch = f.Integer<int64_t>("first_batch");
  p.seed = f.Integer<uint64_t>("seed");
  p.metrics_offset = f.Integer<int64_t>("metrics_offset");
  p.new_files = f.Integer<int64_t>("new_files");
  p.new_samples = f.Integer<int64_t>("new_samples");
  p.window_samples = f.Integer<int64_t>("window_samples");
  p.complete = f.Bool("complete");
  if (!f.ok()) return R::Error(source + ": training call plan: " + f.error());
  if (p.steps < 0 || p.steps_done < 0 || p.steps_done > p.steps || p.start_step < 0 ||
      p.first_batch < 0 || p.metrics_offset < 0) {
    return R::Error(source + ": training call plan is inconsistent");
  }
  return p;
}

int64_t PlanSteps(const TrainingConfig& c, int64_t new_samples, int64_t steps_override,
                  DataState& state) {
  const double allowance =
      state.reuse_credit + static_cast<double>(new_samples) * c.max_sample_reuse;
  if (steps_override >= 0) {
    state.reuse_credit = 0.0;
    return steps_override;
  }
  const auto whole = static_cast<int64_t>(std::floor(allowance / c.batch_size));
  if (whole > c.max_steps_per_generation) {
    state.reuse_credit = 0.0;
    return c.max_steps_per_generation;
  }
  state.reuse_credit = allowance - static_cast<double>(whole) * c.batch_size;
  return whole;
}

}  // namespace veletas::training
