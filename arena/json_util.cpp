#include "arena/json_util.h"

#include <cmath>

namespace veletas::arena {

using nlohmann::json;

double Round(double x, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(x * scale) / scale;
}

void AddEloFields(json& out, const EloEstimate& e) {
  out["score"] = Round(e.score, 4);
  out["elo"] = Round(e.elo, 2);
  const json low = e.bound == EloBound::kTwoSided || e.bound == EloBound::kLowerOnly
                       ? json(Round(e.ci_low, 2))
                       : json(nullptr);
  const json high = e.bound == EloBound::kTwoSided || e.bound == EloBound::kUpperOnly
                        ? json(Round(e.ci_high, 2))
                        : json(nullptr);
  out["elo_ci95"] = json::array({low, high});
  out["elo_bound"] = EloBoundName(e.bound);
  out["los"] = Round(e.los, 4);
}

}  // namespace veletas::arena
