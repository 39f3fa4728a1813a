#include "search/improved_policy.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace veletas::search {

float MixedValue(std::span<const float> priors, float raw_value,
                 std::span<const VisitedAction> visited) {
  double sum_n = 0, sum_p = 0, weighted = 0;
  for (const VisitedAction& v : visited) {
    if (v.visits == 0) continue;
    const double p = std::max(priors[v.index], kMinPrior);
    sum_n += v.visits;
    sum_p += p;
    weighted += p * v.q;
  }
  return static_cast<float>(sum_n > 0 ? (raw_value + sum_n * (weighted / sum_p)) / (sum_n + 1)
                                      : raw_value);
}

std::vector<float> ImprovedPolicy(std::span<const float> priors, float raw_value,
                                  std::span<const VisitedAction> visited, float c_visit,
                                  float c_scale) {
  const size_t k = priors.size();
  std::vector<float> sigma(k, MixedValue(priors, raw_value, visited));
  uint32_t max_n = 0;
  for (const VisitedAction& v : visited) {
    if (v.visits == 0) continue;
    sigma[v.index] = v.q;
    max_n = std::max(max_n, v.visits);
  }
  const auto [lo, hi] = std::minmax_element(sigma.begin(), sigma.end());
  const float min_q = *lo;
  const float range = std::max(*hi - min_q, 1e-8f);
  const float scale = (c_visit + static_cast<float>(max_n)) * c_scale;
  float max_logit = -std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < k; ++i) {
    sigma[i] = scale * (sigma[i] - min_q) / range + std::log(std::max(priors[i], kMinPrior));
    max_logit = std::max(max_logit, sigma[i]);
  }
  double sum = 0;
  for (float s : sigma) sum += std::exp(s - max_logit);
  std::vector<float> policy(k);
  for (size_t i = 0; i < k; ++i)
    policy[i] = static_cast<float>(std::exp(sigma[i] - max_logit) / sum);
  return policy;
}

}  // namespace veletas::search
