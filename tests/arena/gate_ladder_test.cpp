// The promotion gate and the rating-ladder workflow, end to end through run directories:
// decisions against hand-computed SPRT numbers, match files and game records on disk,
// resumption, and ratings that order players of clearly different strength.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "arena/arena_record.h"
#include "arena/gate.h"
#include "arena/ladder.h"
#include "arena/match_record.h"
#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "tests/support/temp_dir.h"

namespace veletas::arena {
namespace {

namespace fs = std::filesystem;
constexpr rules::RuleSet kStd = rules::RuleSet::kStandard;

class RunDirTest : public ::testing::Test {
 protected:
  std::vector<std::string> Lines(const std::string& relative) const {
    std::ifstream in(fs::path(dir_) / relative);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

  test_support::TempDir tmp_{"run"};
  const std::string dir_ = tmp_.Str();
};

ArenaPlayer Uct(int playouts, const std::string& name = "") {
  ArenaPlayer p = MakeBaselinePlayer(PlayerSpec{PlayerKind::kUct, playouts, ""});
  if (!name.empty()) p.name = name;
  return p;
}

ArenaConfig FastConfig() {
  ArenaConfig c;
  c.games_in_parallel = 16;
  c.threads = 2;
  c.seed = 3;
  return c;
}

GateSettings Sprt(double elo1, int batch, int max_games) {
  GateSettings s;
  s.config.method = GateMethod::kSprt;
  s.config.sprt = SprtConfig{0.0, elo1, 0.05, 0.05};
  s.config.max_games = max_games;
  s.batch_games = batch;
  return s;
}

TEST(GateSettings, Validation) {
  EXPECT_TRUE(GateSettings{}.Validate().ok());
  GateSettings s;
  s.batch_games = 7;
  ASSERT_FALSE(s.Validate().ok());
  EXPECT_EQ(s.Validate().error(),
            "batch_games: 7 is odd; games are played in pairs with the seats swapped");
  s = GateSettings{};
  s.config.sprt.elo1 = -10;
  ASSERT_FALSE(s.Validate().ok());
  EXPECT_EQ(s.Validate().error(), "elo1: -10 must be greater than elo0 (0)");
  s = GateSettings{};
  s.config.threshold = 0;
  ASSERT_FALSE(s.Validate().ok());
  EXPECT_EQ(s.Validate().error(), "threshold: 0 is out of range (0, 1]");
  // The whole arena section names the nested struct.
  ArenaSettings a;
  EXPECT_TRUE(a.Validate().ok());
  a.ladder.uct_anchors = {100, 0};
  ASSERT_FALSE(a.Validate().ok());
  EXPECT_EQ(a.Validate().error(), "ladder.uct_anchors: 0 is out of range [1, 100000000]");
  a = ArenaSettings{};
  a.arena.opening_turns = 21;
  ASSERT_FALSE(a.Validate().ok());
  EXPECT_EQ(a.Validate().error(), "opening_turns: 21 is out of range [0, 20]");
}

TEST_F(RunDirTest, GateRejectsAnEqualCandidateExactlyWhenTheSprtSaysSo) {
  // Candidate and best are the same deterministic player, so every pair of games is split
  // 1-1 and after n games LLR = (n/2) ln(4 p1 (1 - p1)) with p1 = 1 / (1 + 10^(-100/400)):
  // -0.0408 per game. The lower bound ln(0.05 / 0.95) = -2.944 is crossed between 72 and
  // 73 games; checked after batches of 16, that is after 80 games (LLR -3.26; -2.61 at 64).
  search::HashEvaluator hash(4);
  const ArenaPlayer best = MakeGenerationPlayer(1, "gen_1.ckpt", hash, {}, 8);
  const ArenaPlayer candidate = MakeGenerationPlayer(2, "gen_2.ckpt", hash, {}, 8);
  auto r = RunGate(candidate, best, kStd, 7, Sprt(100, 16, 400), FastConfig(), dir_);
  ASSERT_TRUE(r.ok()) << r.error();
  const GateEvidence& e = r.value().evidence;
  EXPECT_FALSE(r.value().promoted);
  EXPECT_EQ(e.decision, GateDecision::kReject);
  EXPECT_EQ(e.games, 80);
  EXPECT_EQ(e.wins, 40);
  const double p1 = 1 / (1 + std::pow(10.0, -100.0 / 400));
  EXPECT_NEAR(e.llr, 40 * std::log(4 * p1 * (1 - p1)), 1e-9);
  EXPECT_NEAR(e.lower, std::log(0.05 / 0.95), 1e-12);

  // On disk: the match with its gate evidence, and 80 replayable game records.
  EXPECT_EQ(r.value().match_file, MatchFilePath(dir_, "gate_gen_2-vs-gen_1"));
  auto m = ReadMatchRecord(r.value().match_file);
  ASSERT_TRUE(m.ok()) << m.error();
  ASSERT_TRUE(m.value().gate.has_value());
  EXPECT_EQ(m.value().gate->decision, GateDecision::kReject);
  EXPECT_EQ(m.value().a.name, "gen_2");
  EXPECT_EQ(m.value().a.spec, "mcts:gen_2.ckpt:8");
  ASSERT_EQ(m.value().games.size(), 80u);
  const auto lines = Lines(RecordsFileName("gate_gen_2-vs-gen_1"));
  ASSERT_EQ(lines.size(), 80u);
  for (size_t i = 0; i < lines.size(); ++i) {
    auto game = rules::PlayRecord(kStd, 7, lines[i]);
    ASSERT_TRUE(game.ok()) << game.error();
    EXPECT_EQ(*game.value().final.Winner() == *m.value().games[i].a_colour,
              m.value().games[i].a_won);
    EXPECT_EQ(m.value().games[i].record,
              "matches/gate_gen_2-vs-gen_1.records.txt:" + std::to_string(i + 1));
  }

  // A second call finds the decision on disk and does not play again.
  auto again = RunGate(candidate, best, kStd, 7, Sprt(100, 16, 400), FastConfig(), dir_);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE(again.value().resumed);
  EXPECT_EQ(again.value().evidence.games, 80);
  EXPECT_EQ(again.value().stats.turns, 0u);
}

TEST_F(RunDirTest, GatePromotesAClearlyStrongerCandidate) {
  // UCT with 200 playouts per turn against 10 wins nearly every game on 7x7; the SPRT
  // (elo1 = 100) accepts H1 after 12 straight wins and at most a few more games per loss.
  auto r =
      RunGate(Uct(200, "gen_9"), Uct(10, "gen_8"), kStd, 7, Sprt(100, 10, 200), FastConfig(), dir_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r.value().promoted) << r.value().evidence.reason;
  EXPECT_EQ(r.value().evidence.decision, GateDecision::kPromote);
  EXPECT_EQ(r.value().evidence.games % 10, 0);  // decided between batches
  EXPECT_LE(r.value().evidence.games, 40);
  EXPECT_GE(r.value().evidence.llr, r.value().evidence.upper);
}

TEST_F(RunDirTest, FixedGamesGateStopsOnceTheOutcomeIsSettled) {
  // Equal players split every pair. 40 planned games at a threshold of 0.8 need 32 wins;
  // after the first batch of 10 (5-5) 35 are still possible, after the second (10-10) only
  // 30, so the gate rejects after 20 games without playing the rest.
  search::HashEvaluator hash(6);
  GateSettings s;
  s.config.method = GateMethod::kFixedGames;
  s.config.games = 40;
  s.config.threshold = 0.8;
  s.batch_games = 10;
  auto r = RunGate(MakeGenerationPlayer(3, "c", hash, {}, 6),
                   MakeGenerationPlayer(2, "b", hash, {}, 6), kStd, 7, s, FastConfig(), dir_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().evidence.decision, GateDecision::kReject);
  EXPECT_EQ(r.value().evidence.games, 20);
  EXPECT_EQ(r.value().evidence.wins, 10);
  EXPECT_EQ(r.value().evidence.wins_needed, 32);
  EXPECT_EQ(Lines(RecordsFileName("gate_gen_3-vs-gen_2")).size(), 20u);
}

TEST(Ladder, PreviousGenerationsAndAnchors) {
  EXPECT_EQ(PreviousGenerationsToPlay(5, {0, 1, 2, 3, 4, 5, 6}, 2), (std::vector<long long>{4, 3}));
  EXPECT_EQ(PreviousGenerationsToPlay(5, {3, 1, 3}, 5), (std::vector<long long>{3, 1}));
  EXPECT_TRUE(PreviousGenerationsToPlay(0, {0, 1}, 2).empty());
  LadderConfig c;
  c.uct_anchors = {1000, 100, 1000};
  const auto anchors = LadderAnchors(c);
  ASSERT_EQ(anchors.size(), 3u);
  EXPECT_EQ(anchors[0].name, "random");
  EXPECT_EQ(anchors[1].name, "uct_100");
  EXPECT_EQ(anchors[2].spec.ToString(), "uct:1000");
}

TEST_F(RunDirTest, LadderRatesStrongerPlayersHigher) {
  LadderConfig ladder;
  ladder.uct_anchors = {10};
  ladder.anchor_games = 16;
  ladder.games_vs_anchors = 16;
  ladder.games_vs_previous = 16;
  // "Generation 1" is UCT with 200 playouts: far above UCT with 10 (UCT 300 against 10:
  // 39-1 in 40 games) and random; UCT with 10 playouts is above random (28-12 to 34-6 in
  // 40-game matches with three seeds).
  auto r1 = RunLadderRound(dir_, kStd, 7, Uct(200, "gen_1"), {}, FastConfig(), ladder);
  ASSERT_TRUE(r1.ok()) << r1.error();
  ASSERT_EQ(r1.value().matches.size(), 3u);
  EXPECT_EQ(r1.value().matches[0].name, "anchors_random-vs-uct_10");
  EXPECT_EQ(r1.value().matches[1].name, "ladder_gen_1-vs-random");
  EXPECT_EQ(r1.value().matches[2].name, "ladder_gen_1-vs-uct_10");
  for (const auto& m : r1.value().matches) {
    EXPECT_FALSE(m.existed);
    EXPECT_EQ(m.a_wins + m.b_wins, 16);
    EXPECT_TRUE(fs::exists(MatchFilePath(dir_, m.name)));
    EXPECT_EQ(Lines(RecordsFileName(m.name)).size(), 16u);
  }
  for (const auto& e : fs::directory_iterator(MatchesDir(dir_))) {
    EXPECT_NE(e.path().extension(), ".part") << "journal left behind: " << e.path();
  }
  // The ratings, as `veletas ratings` computes them, from the files alone.
  const RunMatches run = LoadRunMatches(dir_);
  EXPECT_TRUE(run.skipped.empty());
  auto ladder1 = ComputeLadder(PairResults(run.matches));
  ASSERT_TRUE(ladder1.ok()) << ladder1.error();
  const PlayerRating* gen1 = ladder1.value().Find("gen_1");
  const PlayerRating* uct10 = ladder1.value().Find("uct_10");
  ASSERT_TRUE(gen1 && uct10);
  const PlayerRating* random = ladder1.value().Find("random");
  ASSERT_TRUE(random && random->fixed);
  EXPECT_GT(uct10->elo, random->elo);
  EXPECT_GT(gen1->elo, uct10->elo + 150);
  EXPECT_GT(gen1->elo, random->elo + 300);
  ASSERT_TRUE(r1.value().ladder.has_value());
  EXPECT_NEAR(r1.value().ladder->Find("gen_1")->elo, gen1->elo, 1e-9);

  // The next generation (weaker here: 40 playouts; UCT 200 against 40 won 33 to 37 of 40
  // games with three seeds) plays the anchors and generation 1; the anchor match of the
  // run is not played again.
  auto r2 =
      RunLadderRound(dir_, kStd, 7, Uct(40, "gen_2"), {Uct(200, "gen_1")}, FastConfig(), ladder);
  ASSERT_TRUE(r2.ok()) << r2.error();
  ASSERT_EQ(r2.value().matches.size(), 4u);
  EXPECT_TRUE(r2.value().matches[0].existed);
  EXPECT_EQ(r2.value().matches[3].name, "ladder_gen_2-vs-gen_1");
  EXPECT_FALSE(r2.value().matches[3].existed);
  const Ladder& l2 = *r2.value().ladder;
  EXPECT_GT(l2.Find("gen_1")->elo, l2.Find("gen_2")->elo);
  EXPECT_GT(l2.Find("gen_2")->elo, l2.Find("random")->elo + 150);
  EXPECT_EQ(LoadRunMatches(dir_).matches.size(), 6u);

  // A rerun of the same round plays nothing.
  auto r3 =
      RunLadderRound(dir_, kStd, 7, Uct(40, "gen_2"), {Uct(200, "gen_1")}, FastConfig(), ladder);
  ASSERT_TRUE(r3.ok()) << r3.error();
  for (const auto& m : r3.value().matches) EXPECT_TRUE(m.existed) << m.name;

  // A player named like an anchor is refused.
  EXPECT_FALSE(RunLadderRound(dir_, kStd, 7, Uct(10), {}, FastConfig(), ladder).ok());
}

}  // namespace
}  // namespace veletas::arena
