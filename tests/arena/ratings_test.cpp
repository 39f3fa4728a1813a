// The Bradley-Terry rating ladder: closed forms for two players, recovery of known ratings
// from seeded simulated tournaments, interval coverage, regularisation, disconnected players.
#include "arena/ratings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "arena/elo.h"
#include "util/random.h"

namespace veletas::arena {
namespace {

constexpr double kK = 2.302585092994046 / 400.0;  // ln(10) / 400

TEST(RatingsTest, TwoPlayersMatchTheClosedForm) {
  // With c virtual games (c/2 wins each way) the MAP difference of two players solves
  // (w + c/2) = (n + c) p, p = ExpectedScore(d):  d = 400 log10((w + c/2) / (l + c/2)).
  // 30-10, c = 1: 400 log10(30.5 / 10.5) = 185.2442. The Hessian of the log posterior is
  // -(n + c) k^2 p (1 - p), so the standard error is 1 / (k sqrt((n + c) p (1 - p))) with
  // p = 30.5 / 41: 62.157 Elo.
  auto ladder = ComputeLadder({{"gen_1", "random", 30, 10}});
  ASSERT_TRUE(ladder) << ladder.error();
  const PlayerRating* g = ladder.value().Find("gen_1");
  const PlayerRating* r = ladder.value().Find("random");
  ASSERT_NE(g, nullptr);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->fixed);
  EXPECT_DOUBLE_EQ(r->elo, 0.0);
  EXPECT_NEAR(g->elo, 185.2442, 1e-3);
  const double p = 30.5 / 41.0;
  const double se = 1.0 / (kK * std::sqrt(41.0 * p * (1.0 - p)));
  EXPECT_NEAR(se, 62.157, 1e-3);
  EXPECT_NEAR(g->stderr_elo, se, 1e-6);
  EXPECT_NEAR(g->ci_high - g->elo, kZ95TwoSided * se, 1e-6);
  EXPECT_NEAR(ladder.value().Covariance("gen_1", "gen_1"), se * se, 1e-6);
  EXPECT_EQ(g->games, 40);
  EXPECT_EQ(g->wins, 30);
  EXPECT_DOUBLE_EQ(g->score, 0.75);
  EXPECT_EQ(r->losses, 30);
  // A vanishing prior gives the plain maximum likelihood 400 log10(30 / 10) = 190.8485.
  LadderOptions weak;
  weak.prior_games = 1e-9;
  auto ml = ComputeLadder({{"random", "gen_1", 10, 30}}, weak);
  ASSERT_TRUE(ml) << ml.error();
  EXPECT_NEAR(ml.value().Find("gen_1")->elo, 190.8485, 1e-3);
  EXPECT_NEAR(ml.value().Find("gen_1")->elo, EloFromScore(0.75), 1e-3);
}

TEST(RatingsTest, PerfectScoresStayFinite) {
  // 10-0, c = 1: 400 log10(10.5 / 0.5) = 400 log10(21) = 528.888.
  auto ladder = ComputeLadder({{"gen_1", "random", 10, 0}});
  ASSERT_TRUE(ladder) << ladder.error();
  const PlayerRating* g = ladder.value().Find("gen_1");
  EXPECT_NEAR(g->elo, 528.888, 1e-2);
  EXPECT_TRUE(std::isfinite(g->stderr_elo));
  EXPECT_GT(g->stderr_elo, 0.0);
  // A chain of perfect scores: every rating finite and ordered.
  auto chain = ComputeLadder(
      {{"gen_1", "random", 10, 0}, {"gen_2", "gen_1", 10, 0}, {"gen_3", "gen_2", 0, 10}});
  ASSERT_TRUE(chain) << chain.error();
  const Ladder& l = chain.value();
  for (const PlayerRating& p : l.players) {
    EXPECT_TRUE(p.rated);
    EXPECT_TRUE(std::isfinite(p.elo) && std::isfinite(p.ci_low) && std::isfinite(p.ci_high));
  }
  EXPECT_GT(l.Find("gen_2")->elo, l.Find("gen_1")->elo);
  EXPECT_GT(l.Find("gen_1")->elo, l.Find("gen_3")->elo);
  EXPECT_GT(l.Find("gen_1")->elo, 0.0);
  // Sorted by Elo, highest first.
  EXPECT_EQ(l.players.front().name, "gen_2");
}

TEST(RatingsTest, DisconnectedPlayersAreUnrated) {
  auto ladder = ComputeLadder({{"gen_1", "random", 12, 8},
                               {"gen_2", "gen_1", 11, 9},
                               {"island_a", "island_b", 7, 3},
                               {"nobody", "random", 0, 0}});
  ASSERT_TRUE(ladder) << ladder.error();
  const Ladder& l = ladder.value();
  EXPECT_TRUE(l.Find("gen_2")->rated);
  for (const char* name : {"island_a", "island_b", "nobody"}) {
    const PlayerRating* p = l.Find(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_FALSE(p->rated) << name;
    EXPECT_DOUBLE_EQ(p->elo, 0.0);
  }
  EXPECT_EQ(l.Find("island_a")->wins, 7);
  // Unrated players come last and are null in JSON.
  EXPECT_FALSE(l.players.back().rated);
  const nlohmann::json j = LadderToJson(l);
  bool seen = false;
  for (const auto& p : j.at("players")) {
    if (p.at("name") == "island_b") {
      seen = true;
      EXPECT_TRUE(p.at("elo").is_null());
      EXPECT_FALSE(p.at("rated").get<bool>());
    }
  }
  EXPECT_TRUE(seen);
}

TEST(RatingsTest, SeveralFixedAnchors) {
  // uct_1000 fixed at 600: a player who only met it is rated from it, with the closed form.
  LadderOptions options;
  options.fixed = {{"random", 0.0}, {"uct_1000", 600.0}};
  auto ladder =
      ComputeLadder({{"gen_5", "uct_1000", 30, 10}, {"gen_1", "random", 20, 20}}, options);
  ASSERT_TRUE(ladder) << ladder.error();
  const Ladder& l = ladder.value();
  EXPECT_NEAR(l.Find("gen_5")->elo, 600.0 + 185.2442, 1e-3);
  EXPECT_NEAR(l.Find("gen_1")->elo, 0.0, 1e-9);
  EXPECT_TRUE(l.Find("uct_1000")->fixed);
  EXPECT_DOUBLE_EQ(l.Find("uct_1000")->stderr_elo, 0.0);
  EXPECT_DOUBLE_EQ(l.Covariance("gen_5", "gen_1"), 0.0);  // independent given the anchors
}

TEST(RatingsTest, BadInputIsAnError) {
  EXPECT_FALSE(ComputeLadder({{"a", "a", 1, 1}}));
  EXPECT_FALSE(ComputeLadder({{"a", "random", -1, 1}}));
  EXPECT_FALSE(ComputeLadder({{"", "random", 1, 1}}));
  LadderOptions none;
  none.fixed.clear();
  EXPECT_FALSE(ComputeLadder({{"a", "random", 1, 1}}, none));
  LadderOptions zero_prior;
  zero_prior.prior_games = 0.0;
  EXPECT_FALSE(ComputeLadder({{"a", "random", 1, 1}}, zero_prior));
}

// A round robin with `games` games per pair among players with known ratings (player 0 is
// `random` at 0); wins drawn with probability ExpectedScore(r_i - r_j).
std::vector<PairResult> Tournament(const std::vector<double>& truth, int games, util::Rng& rng) {
  std::vector<PairResult> results;
  for (size_t i = 0; i < truth.size(); ++i) {
    for (size_t j = i + 1; j < truth.size(); ++j) {
      const double p = ExpectedScore(truth[i] - truth[j]);
      PairResult r{i == 0 ? "random" : "p" + std::to_string(i), "p" + std::to_string(j), 0, 0};
      for (int g = 0; g < games; ++g) (rng.Uniform() < p ? r.a_wins : r.b_wins) += 1;
      results.push_back(r);
    }
  }
  return results;
}

TEST(RatingsTest, RecoversKnownRatingsFromALargeTournament) {
  const std::vector<double> truth = {0, 120, 250, 400, 520, 700};
  util::Rng rng(4242);
  auto ladder = ComputeLadder(Tournament(truth, 400, rng));
  ASSERT_TRUE(ladder) << ladder.error();
  for (size_t i = 1; i < truth.size(); ++i) {
    const PlayerRating* p = ladder.value().Find("p" + std::to_string(i));
    ASSERT_NE(p, nullptr);
    // 400 games per pair against 5 opponents: standard errors of roughly 15-30 Elo.
    EXPECT_LT(p->stderr_elo, 35.0) << p->name;
    EXPECT_GT(p->stderr_elo, 5.0) << p->name;
    // Within three standard errors (a single seeded draw; coverage is tested below).
    EXPECT_NEAR(p->elo, truth[i], 3.0 * p->stderr_elo) << p->name;
  }
}

TEST(RatingsTest, ConfidenceIntervalsCoverAbout95Percent) {
  // 200 seeded tournaments, 4 free players, 100 games per pair: 800 intervals. Binomial
  // standard error of the coverage 0.0077, so [0.92, 0.98] is about 4 of them either way.
  const std::vector<double> truth = {0, 80, 200, 260, 420};
  util::Rng rng(99);
  int covered = 0;
  int total = 0;
  for (int t = 0; t < 200; ++t) {
    auto ladder = ComputeLadder(Tournament(truth, 100, rng));
    ASSERT_TRUE(ladder) << ladder.error();
    for (size_t i = 1; i < truth.size(); ++i) {
      const PlayerRating* p = ladder.value().Find("p" + std::to_string(i));
      covered += p->ci_low <= truth[i] && truth[i] <= p->ci_high;
      ++total;
    }
  }
  const double coverage = static_cast<double>(covered) / total;
  EXPECT_GE(coverage, 0.92);
  EXPECT_LE(coverage, 0.98);
}

}  // namespace
}  // namespace veletas::arena
