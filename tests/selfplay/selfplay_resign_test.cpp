// Resignation: the rule on its own (ResignTracker), the false-positive bookkeeping on
// constructed games, and the engine's use of it checked against the recorded root values.
#include <gtest/gtest.h>

#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "selfplay/selfplay_game.h"
#include "selfplay_test_util.h"

namespace veletas::selfplay {
namespace {

using testing::FileGame;
using testing::ReadGames;
using testing::SmallBatching;
using testing::SmallConfig;
using testing::TempDir;

TEST(ResignTracker, FiresOnlyAfterConsecutiveLowValuesOfOnePlayer) {
  ResignTracker t(-0.9f, 3);
  EXPECT_FALSE(t.Observe(0, -0.95f));
  EXPECT_FALSE(t.Observe(1, -0.99f));  // the other player's values count separately
  EXPECT_FALSE(t.Observe(0, -0.95f));
  EXPECT_FALSE(t.Observe(0, -0.9f));  // not below the threshold: the count restarts
  EXPECT_FALSE(t.Observe(0, -0.95f));
  EXPECT_FALSE(t.Observe(0, -0.95f));
  EXPECT_FALSE(t.Fired(0));
  EXPECT_TRUE(t.Observe(0, -0.95f));
  EXPECT_TRUE(t.Fired(0));
  EXPECT_FALSE(t.Fired(1));
  EXPECT_FALSE(t.Observe(1, -0.99f));
  EXPECT_TRUE(t.Observe(1, -0.99f));
  EXPECT_TRUE(t.Fired(1));
}

TEST(ResignTracker, TheLevelIsTheHighestThresholdAtWhichTheRuleNeverFires) {
  // Values of person 0: windows of 3 are (-0.5,-0.95,-0.8), (-0.95,-0.8,-0.97),
  // (-0.8,-0.97,-0.99): their maxima -0.5, -0.8, -0.8; the level is -0.8. The rule fires
  // at a threshold above -0.8 and not at -0.8 itself.
  const std::vector<float> values = {-0.5f, -0.95f, -0.8f, -0.97f, -0.99f};
  for (float threshold : {-0.8f, -0.79f}) {
    ResignTracker t(threshold, 3);
    for (float v : values) t.Observe(0, v);
    EXPECT_FLOAT_EQ(t.Level(0), -0.8f);
    EXPECT_EQ(t.Fired(0), threshold > t.Level(0)) << threshold;
    EXPECT_EQ(t.Level(1), ResignTracker::kNeverLevel);
  }
  ResignTracker short_game(-0.9f, 3);
  short_game.Observe(1, -1.0f);
  short_game.Observe(1, -1.0f);
  EXPECT_EQ(short_game.Level(1), ResignTracker::kNeverLevel);
}

TEST(ResignCalibration, TheHighestThresholdWithFewExpectedFalsePositives) {
  // 60 losers at -0.905 and one winner at -0.505: below the winner 1 of 62 expected
  // ((0 + 1) / (60 + 2)), above it 2 of 63: both under 5%, so up to 0.
  std::vector<ResignObservation> obs(60, {-0.905f, false});
  obs.push_back({-0.505f, true});
  auto t = CalibrateResignThreshold(obs, 0.05, 10);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, 0.0f, 1e-6);
  // 30 losers at -0.905, a winner at -0.605 and 30 more losers at -0.405: just above the
  // winner 31 would resign, one of them a winner: (1 + 1) / (31 + 2) = 6.1%. The threshold
  // stops below the winner, although above -0.405 it would be 2 of 63 again.
  obs.assign(30, {-0.905f, false});
  obs.push_back({-0.605f, true});
  obs.insert(obs.end(), 30, {-0.405f, false});
  t = CalibrateResignThreshold(obs, 0.05, 10);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, -0.61f, 1e-5);
}

TEST(ResignCalibration, AHandfulOfLosersIsNoEvidence) {
  // 12 losers and no winner: the raw rate is 0, but 1 of 14 is expected (7.1%), so no
  // threshold above -1 is safe enough (the raw rule chose 0 from such data, which made a
  // quick-7x7 generation resign 88% of its games with 39% false positives).
  const std::vector<ResignObservation> few(12, {-0.305f, false});
  auto t = CalibrateResignThreshold(few, 0.05, 10);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, -1.0f, 1e-6);
  EXPECT_TRUE(ResignationOff(*t));  // the pipeline turns resignation off for such a generation
  // 19 losers: 1 of 21 (4.8%) is within 5%.
  t = CalibrateResignThreshold(std::vector<ResignObservation>(19, {-0.305f, false}), 0.05, 10);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, 0.0f, 1e-6);
  // Too little evidence: keep the current threshold.
  EXPECT_FALSE(CalibrateResignThreshold({{-0.9f, false}, {-0.8f, false}}, 0.05, 10).has_value());
}

TEST(ResignStats, FalsePositivesAreWouldBeResignersWhoWon) {
  SelfplayStats s;
  FinishedGame g;
  g.no_resign = true;
  // Game 1: the rule would have fired for the first player, who won: a false positive.
  g.would_resign = {true, false};
  g.winner_person = 0;
  s.AddGame(g);
  // Game 2: it would have fired for both; the second player won: one of two is false.
  g.would_resign = {true, true};
  g.winner_person = 1;
  s.AddGame(g);
  // Game 3: fired for the first player, who lost: correct.
  g.would_resign = {true, false};
  g.winner_person = 1;
  s.AddGame(g);
  // Game 4: a game that may resign does not count, whatever happened.
  g.no_resign = false;
  g.would_resign = {true, true};
  s.AddGame(g);
  EXPECT_EQ(s.no_resign_games, 3);
  EXPECT_EQ(s.would_resign, 4);
  EXPECT_EQ(s.false_positives, 2);
  EXPECT_DOUBLE_EQ(s.FalsePositiveRate(), 0.5);
}

// Uniform priors; in the play phase the second player's positions look lost (and so the
// first player's look won), with a strength that varies between positions so that the
// rule's count also restarts at times.
search::FunctionEvaluator GloomyEvaluator() {
  return search::FunctionEvaluator([](const rules::Position& p, search::EvalOutput& out) {
    search::FillUniformPolicy(p, out);
    if (IsSetupDecision(p.Pending())) return;
    const float v = (p.Hash() % 4 == 0) ? -0.3f : -0.99f;
    out.value = p.ToMovePlayer() == 1 ? v : -v;
  });
}

TEST(SelfplayResign, ResignsExactlyWhenTheRuleFiresAndNeverInNoResignGames) {
  constexpr float kThreshold = -0.8f;
  constexpr int kConsecutive = 3;
  SelfplayConfig config = SmallConfig();
  config.full_search_probability = 1;  // every decision recorded with its root value
  config.resign_threshold = kThreshold;
  config.resign_consecutive = kConsecutive;
  config.no_resign_fraction = 0.5f;
  config.games_per_file = 32;
  search::FunctionEvaluator eval = GloomyEvaluator();
  TempDir dir("out");
  SelfplayJob job;
  job.games = 32;
  job.out_dir = dir.Str();
  const auto result = RunSelfplay(config, search::SearchConfig{}, SmallBatching(), eval, job);
  ASSERT_TRUE(result.ok()) << result.error();
  const SelfplayStats& stats = result.value();
  const std::vector<FileGame> games = ReadGames(dir.Str(), 1);
  ASSERT_EQ(games.size(), 32u);

  int resigned = 0, fired_not_resigned = 0, would = 0, false_pos = 0, restarts = 0;
  for (const FileGame& g : games) {
    // Apply the rule to the recorded turn-start values of each player.
    int low[2] = {0, 0};
    bool fired[2] = {false, false};
    int first_fire = -1;  // sample index
    for (size_t i = 0; i < g.samples.size(); ++i) {
      const Sample& s = g.samples[i];
      if (s.position.Pending() != rules::Decision::kChooseShooter) continue;
      const int p = s.position.ToMovePlayer();
      if (s.root_value < kThreshold) {
        ++low[p];
      } else {
        if (low[p] > 0) ++restarts;
        low[p] = 0;
      }
      if (low[p] >= kConsecutive) {
        if (first_fire < 0) first_fire = static_cast<int>(i);
        fired[p] = true;
      }
    }
    const auto replay = testing::ReplayRecord(rules::RuleSet::kStandard, 7, g.record.record);
    if (g.record.resigned) {
      ++resigned;
      // The game ends at the decision where the rule first fired, by that player: that
      // decision (the record's end) is not played, so it is no sample (a learner refuses a
      // sample of no position of the record); the rule had not fired before it, and the
      // resigning player's kConsecutive - 1 turn starts before it were low.
      EXPECT_EQ(first_fire, -1) << g.record.record;
      const int p = replay.final.ToMovePlayer();
      EXPECT_EQ(low[p], kConsecutive - 1) << g.record.record;
      ASSERT_FALSE(g.samples.empty());
      for (const Sample& s : g.samples) {
        EXPECT_FALSE(s.position == replay.final);
        EXPECT_EQ(s.outcome, s.position.ToMovePlayer() == p ? -1.0f : 1.0f);
      }
      EXPECT_EQ(g.record.winner, static_cast<int>(rules::Opponent(replay.final.ToMove())));
    } else if (first_fire >= 0) {
      // A game that went on although the rule fired: a no-resign game.
      ++fired_not_resigned;
      const int winner_person =
          g.record.winner == 0 ? replay.final.BlackPlayer() : 1 - replay.final.BlackPlayer();
      for (int p = 0; p < 2; ++p) {
        if (!fired[p]) continue;
        ++would;
        if (p == winner_person) ++false_pos;
      }
    }
  }
  EXPECT_GT(resigned, 0);
  EXPECT_GT(fired_not_resigned, 0);
  EXPECT_GT(restarts, 0);
  EXPECT_EQ(stats.resignations, resigned);
  EXPECT_GT(stats.no_resign_games, 0);
  EXPECT_LT(stats.no_resign_games, 32);
  // Every game where the rule fired without resigning was a no-resign game, and the
  // engine's false-positive counts are those of the recorded values.
  EXPECT_LE(fired_not_resigned, stats.no_resign_games);
  EXPECT_EQ(stats.would_resign, would);
  EXPECT_EQ(stats.false_positives, false_pos);
}

TEST(SelfplayResign, ThresholdMinusOneNeverResignsAndEveryGameIsObserved) {
  // In the play phase every position of the second player is lost outright (-1), so its
  // turn-start values sit on -1 itself: a threshold of -1 must still never fire, while one
  // just above it does. With resignation off every game plays out, so every game is a
  // no-resign game whose levels calibrate the next threshold.
  search::FunctionEvaluator hopeless([](const rules::Position& p, search::EvalOutput& out) {
    search::FillUniformPolicy(p, out);
    if (IsSetupDecision(p.Pending())) return;
    out.value = p.ToMovePlayer() == 1 ? -1.0f : 1.0f;
  });
  SelfplayConfig config = SmallConfig();
  config.resign_consecutive = 1;
  config.no_resign_fraction = 0;
  SelfplayJob job;
  job.games = 8;
  config.resign_threshold = -1.0f;
  ASSERT_TRUE(ResignationOff(config.resign_threshold));
  const auto off = RunSelfplay(config, search::SearchConfig{}, SmallBatching(), hopeless, job);
  ASSERT_TRUE(off.ok()) << off.error();
  EXPECT_EQ(off.value().games_finished, 8);
  EXPECT_EQ(off.value().resignations, 0);
  EXPECT_EQ(off.value().no_resign_games, 8);
  ASSERT_EQ(off.value().resign_observations.size(), 16u);
  // Two observations per game, the first person's then the second's: the second person's
  // values sit on -1 throughout the play phase.
  const std::vector<ResignObservation>& seen = off.value().resign_observations;
  for (size_t i = 1; i < seen.size(); i += 2) EXPECT_LT(seen[i].level, -0.999f) << i;
  config.resign_threshold = -0.999f;
  ASSERT_FALSE(ResignationOff(config.resign_threshold));
  const auto on = RunSelfplay(config, search::SearchConfig{}, SmallBatching(), hopeless, job);
  ASSERT_TRUE(on.ok()) << on.error();
  EXPECT_GT(on.value().resignations, 0);
  EXPECT_EQ(on.value().no_resign_games, 0);  // no_resign_fraction 0 with resignation on
}

}  // namespace
}  // namespace veletas::selfplay
