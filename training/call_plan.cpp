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
  try {
    const nlohmann::json& j = parsed.value();
    CallPlan p;
    p.input_fingerprint = j.at("input_fingerprint").get<std::string>();
    p.generation = util::JsonInteger<int64_t>(j, "generation");
    p.start_step = util::JsonInteger<int64_t>(j, "start_step");
    p.steps = util::JsonInteger<int64_t>(j, "steps");
    p.steps_done = util::JsonInteger<int64_t>(j, "steps_done");
    p.first_batch = util::JsonInteger<int64_t>(j, "first_batch");
    p.seed = util::JsonInteger<uint64_t>(j, "seed");
    p.metrics_offset = util::JsonInteger<int64_t>(j, "metrics_offset");
    p.new_files = util::JsonInteger<int64_t>(j, "new_files");
    p.new_samples = util::JsonInteger<int64_t>(j, "new_samples");
    p.window_samples = util::JsonInteger<int64_t>(j, "window_samples");
    p.complete = j.at("complete").get<bool>();
    if (p.steps < 0 || p.steps_done < 0 || p.steps_done > p.steps || p.start_step < 0 ||
        p.first_batch < 0 || p.metrics_offset < 0) {
      return R::Error(source + ": training call plan is inconsistent");
    }
    return p;
  } catch (const std::exception& e) {
    return R::Error(source + ": training call plan: " + e.what());
  }
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
