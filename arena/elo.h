// Elo arithmetic for win/loss matches. Veletas has no draws, so a match between A and B is
// a binomial experiment: A wins each game with probability p, and the logistic Elo model
// ties p to the rating difference d = R_A - R_B:
//   p = ExpectedScore(d) = 1 / (1 + 10^(-d / 400)),   d = EloFromScore(p) = 400 log10(p / (1 - p)).
// All functions are pure and thread-safe.
#pragma once

#include <string>

namespace veletas::arena {

// z quantiles of the standard normal distribution for 95% intervals.
inline constexpr double kZ95TwoSided = 1.959963984540054;   // Phi^-1(0.975)
inline constexpr double kZ95OneSided = 1.6448536269514722;  // Phi^-1(0.95)

// Expected score of A against B for an Elo difference d = R_A - R_B (any finite d).
double ExpectedScore(double elo_diff);

// The Elo difference that gives expected score p. Precondition: 0 < p < 1.
double EloFromScore(double p);

// Which ends of an Elo interval are finite.
enum class EloBound {
  kNone,       // no games: nothing is known; elo = 0 and the interval is meaningless
  kTwoSided,   // 0 < score < 1: elo is the maximum-likelihood estimate, [ci_low, ci_high]
  kLowerOnly,  // score = 1 (A won every game): only "elo >= ci_low" is known
  kUpperOnly,  // score = 0 (A lost every game): only "elo <= ci_high" is known
};
// In the one-sided cases elo, ci_low and ci_high all hold the one finite bound (so that
// sorting and plotting stay finite); check `bound` before reading them as an interval.

// "none", "two_sided", "lower", "upper" (the names used in JSON files).
const char* EloBoundName(EloBound bound);

// The Elo difference A - B estimated from one match, with its 95% interval and the
// likelihood of superiority.
//
// Interval: the Wilson score interval for the binomial proportion p (z = 1.95996 two-sided),
// mapped through the monotone EloFromScore, so it is asymmetric in Elo and never needs the
// normal approximation on the Elo scale. When A won (lost) every game the maximum-likelihood
// Elo is +infinity (-infinity); then the one finite end is reported instead: the one-sided
// 95% Wilson bound (z = 1.64485), which for n straight wins is elo >= 400 log10(n / z^2),
// and `bound` says which end is missing. No field is ever infinite or NaN.
//
// LOS (likelihood of superiority): the posterior probability that p > 1/2 (A is stronger)
// with a uniform prior on p, i.e. P(Beta(wins + 1, losses + 1) > 1/2), computed exactly as
// P(Binomial(games + 1, 1/2) <= wins). It is 0.5 for no games and close to the usual
// normal approximation 0.5 (1 + erf((wins - losses) / sqrt(2 games))) for many games.
struct EloEstimate {
  int wins = 0;
  int losses = 0;
  int games = 0;
  double score = 0.5;  // wins / games (0.5 when games == 0)
  double elo = 0.0;    // see EloBound for the one-sided cases
  double ci_low = 0.0;
  double ci_high = 0.0;
  EloBound bound = EloBound::kNone;
  double los = 0.5;
};

// Estimates A - B from A's wins and losses. Precondition: wins >= 0, losses >= 0.
EloEstimate EstimateElo(int wins, int losses);

// The Wilson score interval [low, high] for `wins` successes in `games` trials at quantile
// z. Precondition: 0 <= wins <= games, games > 0, z > 0.
void WilsonInterval(int wins, int games, double z, double& low, double& high);

// P(Beta(wins + 1, losses + 1) > 1/2); see EloEstimate. Precondition: wins, losses >= 0.
double LikelihoodOfSuperiority(int wins, int losses);

// Human-readable form, e.g. "+70.4 [+1.4, +139.5]", ">= +227.1 (one-sided 95%)",
// "<= -227.1 (one-sided 95%)", "n/a (no games)".
std::string FormatElo(const EloEstimate& e);

}  // namespace veletas::arena
