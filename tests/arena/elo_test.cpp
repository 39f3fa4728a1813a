// Elo, confidence intervals, LOS, SPRT and the promotion gates against hand-computed values
// and seeded simulations.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "arena/elo.h"
#include "arena/sprt.h"
#include "util/random.h"

namespace veletas::arena {
namespace {

TEST(EloTest, ScoreAndEloAreInverse) {
  // 400 Elo = odds of 10: score 10/11. 0 Elo = score 1/2.
  EXPECT_NEAR(ExpectedScore(400.0), 10.0 / 11.0, 1e-12);
  EXPECT_NEAR(ExpectedScore(-400.0), 1.0 / 11.0, 1e-12);
  EXPECT_DOUBLE_EQ(ExpectedScore(0.0), 0.5);
  for (double p : {0.01, 0.2, 0.5, 0.77, 0.999})
    EXPECT_NEAR(ExpectedScore(EloFromScore(p)), p, 1e-12);
}

TEST(EloTest, SixtyWinsOfHundred) {
  const EloEstimate e = EstimateElo(60, 40);
  EXPECT_EQ(e.games, 100);
  EXPECT_DOUBLE_EQ(e.score, 0.6);
  // Elo = -400 log10(1/0.6 - 1) = 400 log10(1.5) = 400 * 0.1760913 = 70.4365.
  EXPECT_NEAR(e.elo, 70.4365, 1e-4);
  // Wilson, z = 1.959964, z^2 = 3.841459, n = 100, p = 0.6:
  //   denom  = 1 + z^2/n = 1.03841459
  //   centre = (0.6 + z^2/200) / denom = 0.61920729 / 1.03841459 = 0.59630015
  //   half   = z / denom * sqrt(0.24/100 + z^2/40000) = 1.88746 * 0.04996042 = 0.09429904
  //   p in [0.50200111, 0.69059919] -> Elo 400 log10(p/(1-p)) in [+1.3916, +139.4815].
  EXPECT_EQ(e.bound, EloBound::kTwoSided);
  EXPECT_NEAR(e.ci_low, 1.3916, 2e-3);
  EXPECT_NEAR(e.ci_high, 139.4815, 2e-3);
  // LOS: close to the normal approximation 0.5 (1 + erf(20 / sqrt(200))) = 0.977250.
  EXPECT_NEAR(e.los, 0.97725, 1e-3);
  EXPECT_EQ(FormatElo(e), "+70.4 [+1.4, +139.5]");
}

TEST(EloTest, SymmetricUnderSwappingPlayers) {
  const EloEstimate a = EstimateElo(37, 21);
  const EloEstimate b = EstimateElo(21, 37);
  EXPECT_NEAR(a.elo, -b.elo, 1e-9);
  EXPECT_NEAR(a.ci_low, -b.ci_high, 1e-9);
  EXPECT_NEAR(a.ci_high, -b.ci_low, 1e-9);
  EXPECT_NEAR(a.los + b.los, 1.0, 1e-12);
}

TEST(EloTest, LikelihoodOfSuperiorityExactSmallCases) {
  // P(Beta(w+1, l+1) > 1/2) = P(Binomial(w+l+1, 1/2) <= w):
  //   1-0: P(Bin(2) <= 1) = (1 + 2) / 4 = 3/4 (also: density 2x, mass above 1/2 = 3/4)
  //   2-1: P(Bin(4) <= 2) = (1 + 4 + 6) / 16 = 11/16
  //   0-0: 1/2;  3-3: P(Bin(7) <= 3) = (1 + 7 + 21 + 35) / 128 = 1/2
  EXPECT_NEAR(LikelihoodOfSuperiority(1, 0), 0.75, 1e-12);
  EXPECT_NEAR(LikelihoodOfSuperiority(2, 1), 11.0 / 16.0, 1e-12);
  EXPECT_NEAR(LikelihoodOfSuperiority(0, 0), 0.5, 1e-12);
  EXPECT_NEAR(LikelihoodOfSuperiority(3, 3), 0.5, 1e-12);
  // 5200-4800 is 400 / sqrt(10000) = 4 standard deviations: LOS ~ Phi(4) = 0.99996833, and
  // the small tail 1 - Phi(4) = 3.167e-5 keeps its precision.
  EXPECT_NEAR(LikelihoodOfSuperiority(5200, 4800), 0.99996833, 1e-6);
  EXPECT_NEAR(LikelihoodOfSuperiority(4800, 5200), 3.167e-5, 0.02e-5);
  EXPECT_LT(LikelihoodOfSuperiority(50, 50), LikelihoodOfSuperiority(51, 49));
}

TEST(EloTest, AllWinsOrAllLossesGiveAFiniteOneSidedBound) {
  // 10-0: one-sided Wilson lower bound, z = 1.644854, z^2 = 2.705543:
  //   p_low = n / (n + z^2) = 10 / 12.705543 = 0.787058
  //   Elo   = 400 log10(p / (1 - p)) = 400 log10(n / z^2) = 400 log10(3.696115) = 227.098
  const EloEstimate w = EstimateElo(10, 0);
  EXPECT_EQ(w.bound, EloBound::kLowerOnly);
  EXPECT_TRUE(std::isfinite(w.elo));
  EXPECT_NEAR(w.ci_low, 227.098, 1e-2);
  EXPECT_EQ(FormatElo(w), ">= +227.1 (one-sided 95%)");
  const EloEstimate l = EstimateElo(0, 10);
  EXPECT_EQ(l.bound, EloBound::kUpperOnly);
  EXPECT_NEAR(l.ci_high, -227.098, 1e-2);
  EXPECT_EQ(FormatElo(l), "<= -227.1 (one-sided 95%)");
  const EloEstimate none = EstimateElo(0, 0);
  EXPECT_EQ(none.bound, EloBound::kNone);
  EXPECT_EQ(FormatElo(none), "n/a (no games)");
}

TEST(SprtTest, LlrAndBoundsMatchHandComputation) {
  // elo0 = 0, elo1 = 100: p0 = 0.5, p1 = 1 / (1 + 10^-0.25) = 0.6400650.
  // 10 wins, 5 losses: LLR = 10 ln(p1/p0) + 5 ln((1-p1)/(1-p0))
  //                        = 10 * 0.2469601 + 5 * (-0.3286848) = 0.8261932.
  // alpha = beta = 0.05: bounds ln(0.05/0.95) = -2.9444390, ln(0.95/0.05) = +2.9444390.
  const SprtConfig config{0.0, 100.0, 0.05, 0.05};
  ASSERT_TRUE(config.Validate().ok());
  const SprtState s = EvaluateSprt(config, 10, 5);
  EXPECT_NEAR(s.llr, 0.8261932, 1e-6);
  EXPECT_NEAR(s.lower, -2.9444390, 1e-6);
  EXPECT_NEAR(s.upper, 2.9444390, 1e-6);
  EXPECT_EQ(s.decision, SprtDecision::kContinue);
  // Straight wins: 2.944439 / 0.2469601 = 11.92, so 12 wins accept H1 and 11 do not.
  EXPECT_EQ(EvaluateSprt(config, 11, 0).decision, SprtDecision::kContinue);
  EXPECT_EQ(EvaluateSprt(config, 12, 0).decision, SprtDecision::kAcceptH1);
  // Straight losses: 2.944439 / 0.3286848 = 8.96, so 9 losses accept H0 and 8 do not.
  EXPECT_EQ(EvaluateSprt(config, 0, 8).decision, SprtDecision::kContinue);
  EXPECT_EQ(EvaluateSprt(config, 0, 9).decision, SprtDecision::kAcceptH0);
}

TEST(SprtTest, RejectsBadConfigs) {
  // Each error names the setting as config files spell it, and is bad input.
  auto error = [](const SprtConfig& c) { return c.Validate().ok() ? "" : c.Validate().error(); };
  EXPECT_EQ(error({10.0, 0.0, 0.05, 0.05}), "elo1: 0 must be greater than elo0 (10)");
  EXPECT_EQ(error({0.0, 10.0, 0.0, 0.05}), "alpha: 0 is out of range (0, 0.5]");
  EXPECT_EQ(error({0.0, 10.0, 0.05, 1.0}), "beta: 1 is out of range (0, 0.5]");
  EXPECT_EQ(error({0.0, 10.0, 0.6, 0.5}), "alpha: 0.6 is out of range (0, 0.5]");
  EXPECT_EQ(error({0.0, NAN, 0.05, 0.05}), "elo1: nan is out of range [-2000, 2000]");
  EXPECT_EQ(error({-2001.0, 10.0, 0.05, 0.05}), "elo0: -2001 is out of range [-2000, 2000]");
  EXPECT_EQ(SprtConfig{}.Validate().ok(), true);
  EXPECT_EQ(SprtConfig({10.0, 0.0, 0.05, 0.05}).Validate().exit_code(), 2);
}

// Plays games with win probability ExpectedScore(true_elo) until the SPRT decides.
SprtDecision Simulate(const SprtConfig& config, double true_elo, util::Rng& rng, int* games) {
  const double p = ExpectedScore(true_elo);
  int wins = 0;
  int losses = 0;
  for (int g = 0; g < 100000; ++g) {
    (rng.Uniform() < p ? wins : losses) += 1;
    const SprtState s = EvaluateSprt(config, wins, losses);
    if (s.decision != SprtDecision::kContinue) {
      if (games != nullptr) *games = wins + losses;
      return s.decision;
    }
  }
  return SprtDecision::kContinue;
}

TEST(SprtTest, ClearlyStrongerPlayerIsAccepted) {
  const SprtConfig config{0.0, 50.0, 0.05, 0.05};
  util::Rng rng(12345);
  for (int run = 0; run < 50; ++run) {
    EXPECT_EQ(Simulate(config, 200.0, rng, nullptr), SprtDecision::kAcceptH1) << "run " << run;
  }
}

TEST(SprtTest, ErrorRatesStayNearAlphaAndBeta) {
  // Wald: the realised error rates are at most about alpha / (1 - beta) = 0.053 and
  // beta / (1 - alpha) = 0.053. With 400 runs each, 0.10 is more than 4 standard errors above.
  const SprtConfig config{0.0, 50.0, 0.05, 0.05};
  util::Rng rng(777);
  int false_h1 = 0;
  int runs_equal_h0 = 0;
  for (int run = 0; run < 400; ++run) {
    const SprtDecision d = Simulate(config, 0.0, rng, nullptr);
    ASSERT_NE(d, SprtDecision::kContinue);
    false_h1 += d == SprtDecision::kAcceptH1;
    runs_equal_h0 += d == SprtDecision::kAcceptH0;
  }
  EXPECT_LE(false_h1, 40);
  EXPECT_GE(runs_equal_h0, 360);
  int false_h0 = 0;
  for (int run = 0; run < 400; ++run) {
    false_h0 += Simulate(config, 50.0, rng, nullptr) == SprtDecision::kAcceptH0;
  }
  EXPECT_LE(false_h0, 40);
}

TEST(SprtTest, EqualPlayerIsRejectedInOneSeededMatch) {
  util::Rng rng(2024);
  int games = 0;
  EXPECT_EQ(Simulate({0.0, 50.0, 0.05, 0.05}, 0.0, rng, &games), SprtDecision::kAcceptH0);
  // p1 = ExpectedScore(50) = 0.571463: a loss moves the LLR by ln(0.428537 / 0.5) = -0.154231,
  // so reaching ln(1/19) = -2.944439 takes at least 2.944439 / 0.154231 = 19.09 -> 20 games.
  EXPECT_GE(games, 20);
}

TEST(GateTest, FixedGamesThresholdAndEarlyDecisions) {
  GateConfig c;
  c.method = GateMethod::kFixedGames;
  c.games = 100;
  c.threshold = 0.55;
  ASSERT_TRUE(c.Validate().ok());
  // 55 wins of 100 needed.
  GateEvidence e = EvaluateGate(c, 55, 45);
  EXPECT_EQ(e.decision, GateDecision::kPromote);
  EXPECT_EQ(e.wins_needed, 55);
  EXPECT_EQ(EvaluateGate(c, 54, 46).decision, GateDecision::kReject);
  // 55 wins after 85 games: the remaining 15 cannot change the result.
  e = EvaluateGate(c, 55, 30);
  EXPECT_EQ(e.decision, GateDecision::kPromote);
  EXPECT_NE(e.reason.find("55-30"), std::string::npos) << e.reason;
  // 10 wins after 91 games: at most 19 wins possible.
  EXPECT_EQ(EvaluateGate(c, 10, 81).decision, GateDecision::kReject);
  // 20-36: 44 games left, 55 still reachable.
  e = EvaluateGate(c, 20, 36);
  EXPECT_EQ(e.decision, GateDecision::kContinue);
  EXPECT_NE(e.reason.find("35 more wins needed in 44 games"), std::string::npos) << e.reason;
}

TEST(GateTest, SprtGateDecidesAndExplains) {
  GateConfig c;
  c.method = GateMethod::kSprt;
  c.sprt = {0.0, 100.0, 0.05, 0.05};
  c.max_games = 20;
  GateEvidence e = EvaluateGate(c, 12, 0);
  EXPECT_EQ(e.decision, GateDecision::kPromote);
  EXPECT_NE(e.reason.find("accepted H1"), std::string::npos) << e.reason;
  EXPECT_GE(e.llr, e.upper);
  e = EvaluateGate(c, 0, 9);
  EXPECT_EQ(e.decision, GateDecision::kReject);
  EXPECT_NE(e.reason.find("accepted H0"), std::string::npos) << e.reason;
  e = EvaluateGate(c, 5, 5);
  EXPECT_EQ(e.decision, GateDecision::kContinue);
  e = EvaluateGate(c, 10, 10);  // cap reached, no decision: not promoted
  EXPECT_EQ(e.decision, GateDecision::kReject);
  EXPECT_NE(e.reason.find("cap of 20"), std::string::npos) << e.reason;
}

TEST(GateTest, EvidenceJsonRoundTrip) {
  GateConfig c;
  c.sprt = {-10.0, 40.0, 0.05, 0.1};
  c.max_games = 400;
  const GateEvidence e = EvaluateGate(c, 130, 90);
  const nlohmann::json j = GateEvidenceToJson(e);
  EXPECT_EQ(j.at("decision"), GateDecisionName(e.decision));
  EXPECT_EQ(j.at("reason"), e.reason);
  EXPECT_EQ(j.at("sprt").at("max_games"), 400);
  auto back = GateEvidenceFromJson(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back.value().decision, e.decision);
  EXPECT_EQ(back.value().wins, 130);
  EXPECT_EQ(back.value().losses, 90);
  EXPECT_DOUBLE_EQ(back.value().sprt.elo0, -10.0);
  EXPECT_DOUBLE_EQ(back.value().sprt.beta, 0.1);
  EXPECT_NEAR(back.value().llr, e.llr, 1e-4);
  EXPECT_EQ(back.value().reason, e.reason);

  nlohmann::json bad = j;
  bad["decision"] = "maybe";
  auto err = GateEvidenceFromJson(bad);
  ASSERT_FALSE(err);
  EXPECT_NE(err.error().find("gate.decision"), std::string::npos) << err.error();
  bad = j;
  bad["wins"] = 131;
  EXPECT_FALSE(GateEvidenceFromJson(bad));
}

}  // namespace
}  // namespace veletas::arena
