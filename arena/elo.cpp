#include "arena/elo.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

namespace veletas::arena {

double ExpectedScore(double elo_diff) { return 1.0 / (1.0 + std::pow(10.0, -elo_diff / 400.0)); }

double EloFromScore(double p) { return 400.0 * std::log10(p / (1.0 - p)); }

const char* EloBoundName(EloBound bound) {
  switch (bound) {
    case EloBound::kNone:
      return "none";
    case EloBound::kTwoSided:
      return "two_sided";
    case EloBound::kLowerOnly:
      return "lower";
    case EloBound::kUpperOnly:
      return "upper";
  }
  return "none";
}

void WilsonInterval(int wins, int games, double z, double& low, double& high) {
  const double n = games;
  const double p = wins / n;
  const double z2 = z * z;
  const double denom = 1.0 + z2 / n;
  const double centre = (p + z2 / (2.0 * n)) / denom;
  const double half = z / denom * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
  low = std::max(0.0, centre - half);
  high = std::min(1.0, centre + half);
}

double LikelihoodOfSuperiority(int wins, int losses) {
  // P(Beta(w+1, l+1) > 1/2) = P(Binomial(m, 1/2) <= w) with m = w + l + 1. Sum the smaller
  // tail in log space (log-sum-exp) so that values near 0 or 1 keep their precision.
  const int m = wins + losses + 1;
  const bool lower_tail_small = wins < m - wins - 1;  // terms k <= w vs k >= w + 1
  const int from = lower_tail_small ? 0 : wins + 1;
  const int to = lower_tail_small ? wins : m;
  const double log_m_fact = std::lgamma(m + 1.0);
  const double log_half_m = m * std::log(0.5);
  auto log_term = [&](int k) {
    return log_m_fact - std::lgamma(k + 1.0) - std::lgamma(m - k + 1.0) + log_half_m;
  };
  double max_log = -INFINITY;
  for (int k = from; k <= to; ++k) max_log = std::max(max_log, log_term(k));
  double sum = 0.0;
  for (int k = from; k <= to; ++k) sum += std::exp(log_term(k) - max_log);
  const double tail = std::exp(max_log) * sum;
  return lower_tail_small ? tail : 1.0 - tail;
}

EloEstimate EstimateElo(int wins, int losses) {
  EloEstimate e;
  e.wins = wins;
  e.losses = losses;
  e.games = wins + losses;
  e.los = LikelihoodOfSuperiority(wins, losses);
  if (e.games == 0) return e;
  e.score = static_cast<double>(wins) / e.games;
  double low = 0.0;
  double high = 0.0;
  if (losses == 0) {
    WilsonInterval(wins, e.games, kZ95OneSided, low, high);
    e.bound = EloBound::kLowerOnly;
    e.elo = e.ci_low = e.ci_high = EloFromScore(low);
  } else if (wins == 0) {
    WilsonInterval(wins, e.games, kZ95OneSided, low, high);
    e.bound = EloBound::kUpperOnly;
    e.elo = e.ci_low = e.ci_high = EloFromScore(high);
  } else {
    WilsonInterval(wins, e.games, kZ95TwoSided, low, high);
    e.bound = EloBound::kTwoSided;
    e.elo = EloFromScore(e.score);
    e.ci_low = EloFromScore(low);
    e.ci_high = EloFromScore(high);
  }
  return e;
}

std::string FormatElo(const EloEstimate& e) {
  switch (e.bound) {
    case EloBound::kNone:
      return "n/a (no games)";
    case EloBound::kTwoSided:
      return fmt::format("{:+.1f} [{:+.1f}, {:+.1f}]", e.elo, e.ci_low, e.ci_high);
    case EloBound::kLowerOnly:
      return fmt::format(">= {:+.1f} (one-sided 95%)", e.ci_low);
    case EloBound::kUpperOnly:
      return fmt::format("<= {:+.1f} (one-sided 95%)", e.ci_high);
  }
  return "n/a (no games)";
}

}  // namespace veletas::arena
