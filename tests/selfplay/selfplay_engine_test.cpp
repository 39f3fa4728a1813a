// The self-play engine end to end with fake evaluators: what it writes is checked against an
// independent replay of each game record through the rules.
#include "selfplay/selfplay_engine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "search/fake_evaluators.h"
#include "selfplay_test_util.h"
#include "util/atomic_file.h"

namespace veletas::selfplay {
namespace {

using testing::Bytes;
using testing::FileGame;
using testing::ReadGames;
using testing::Replay;
using testing::ReplayRecord;
using testing::SmallBatching;
using testing::SmallConfig;
using testing::TempDir;

constexpr rules::RuleSet kStd = rules::RuleSet::kStandard;

SelfplayStats Play(const SelfplayConfig& config, const search::SearchConfig& search,
                   search::Evaluator& evaluator, const std::string& dir, int64_t games,
                   rules::RuleSet rs = kStd, int size = 7,
                   std::vector<std::string>* log = nullptr) {
  SelfplayJob job;
  job.rules = rs;
  job.size = size;
  job.games = games;
  job.out_dir = dir;
  SelfplayHooks hooks;
  if (log != nullptr) hooks.log = [log](const std::string& m) { log->push_back(m); };
  auto result = RunSelfplay(config, search, SmallBatching(), evaluator, job, hooks);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error());
  return result.ok() ? result.value() : SelfplayStats{};
}

// What the replay checks saw, so that tests can insist the interesting cases occurred.
struct Checked {
  int games = 0;
  int swapped = 0;
  int resigned = 0;
  int samples = 0;
  int pie_samples_in_swapped_games = 0;
  int aux_moved = 0;  // aux targets of shooters that moved after the sample
};

// Checks every game against the rules: the record replays; the winner is the rules' winner
// (or the opponent of the player to move where a resigned record stops); every sample is a
// position of the game, in order; its policy is a distribution over legal actions; its
// outcome is the result of the person to move; its aux targets name every shooter on the
// board and who claimed that very shooter by the end (followed through its moves).
Checked CheckAgainstRules(const std::vector<FileGame>& games, rules::RuleSet rs, int size) {
  Checked c;
  for (const FileGame& g : games) {
    ++c.games;
    const Replay r = ReplayRecord(rs, size, g.record.record);
    const rules::Position& final = r.final;
    rules::Color winner;
    if (g.record.resigned) {
      ++c.resigned;
      EXPECT_FALSE(final.IsTerminal()) << g.record.record;
      EXPECT_EQ(final.Pending(), rules::Decision::kChooseShooter);
      winner = rules::Opponent(final.ToMove());
    } else {
      EXPECT_TRUE(final.IsTerminal()) << g.record.record;
      if (!final.IsTerminal()) continue;
      winner = *final.Winner();
    }
    EXPECT_EQ(static_cast<int>(winner), g.record.winner) << g.record.record;
    const bool swapped = final.BlackPlayer() == 1;
    if (swapped) ++c.swapped;
    // The person who ends the game holding the winning colour.
    const int winner_person =
        winner == rules::Color::kBlack ? final.BlackPlayer() : 1 - final.BlackPlayer();
    const auto person_holding = [&](rules::Color col) {
      return col == rules::Color::kBlack ? final.BlackPlayer() : 1 - final.BlackPlayer();
    };
    size_t at = 0;  // index into the replay's positions (positions.size() = the final one)
    for (const Sample& s : g.samples) {
      ++c.samples;
      while (at < r.positions.size() && !(r.positions[at] == s.position)) ++at;
      const bool is_final = at == r.positions.size();
      // No sample where the record stops, a resigned game's included: the resigning
      // decision is not played, and so is no sample.
      EXPECT_FALSE(is_final) << g.record.record;
      if (is_final) break;
      // Policy: legal actions only, each once, summing to one.
      const rules::ActionSet legal = s.position.LegalActions();
      std::set<int> seen;
      double sum = 0;
      for (const PolicyEntry& e : s.policy) {
        EXPECT_TRUE(legal.Contains(e.action, size)) << "illegal policy action " << +e.action;
        EXPECT_TRUE(seen.insert(e.action).second) << "duplicate action " << +e.action;
        EXPECT_GT(e.prob, 0.0f);
        sum += e.prob;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
      EXPECT_GE(s.root_value, -1.0f);
      EXPECT_LE(s.root_value, 1.0f);
      // Outcome for the person making the decision.
      const int person = s.position.ToMovePlayer();
      EXPECT_EQ(s.outcome, person == winner_person ? 1.0f : -1.0f) << g.record.record;
      if (swapped && s.position.Pending() == rules::Decision::kPie) {
        // The pie decision is White's (the second player's) to make; after the swap that
        // person plays Black, so the sample's outcome is Black's result, not White's.
        ++c.pie_samples_in_swapped_games;
        EXPECT_EQ(s.outcome, winner == rules::Color::kBlack ? 1.0f : -1.0f);
      }
      // Aux: every shooter on the board once; its owner after following it to the end.
      std::set<int> aux_squares;
      for (const AuxTarget& a : s.aux) {
        aux_squares.insert(a.square);
        int sq = a.square;
        for (size_t j = at; j < r.positions.size(); ++j) {
          const rules::Position& p = r.positions[j];
          if (p.Pending() == rules::Decision::kDestination && p.ChosenShooter() == sq) {
            sq = r.actions[j];
          }
        }
        if (sq != a.square) ++c.aux_moved;
        Owner expected = Owner::kNobody;
        for (rules::Color col : {rules::Color::kBlack, rules::Color::kWhite}) {
          if (final.Claimed(col).Test(sq)) {
            expected = person_holding(col) == person ? Owner::kToMove : Owner::kOpponent;
          }
        }
        EXPECT_EQ(a.owner, expected)
            << "shooter " << +a.square << " -> " << sq << " in " << g.record.record;
      }
      EXPECT_EQ(aux_squares.size(), s.aux.size());
      EXPECT_EQ(static_cast<int>(aux_squares.size()), s.position.AllShooters().Count());
      if (is_final) break;
    }
  }
  return c;
}

TEST(SelfplayEngine, WrittenGamesAgreeWithTheRules) {
  TempDir dir("out");
  search::HashEvaluator eval(11);
  // Gumbel: its root always samples the pie rule's swap, so that swaps occur.
  search::SearchConfig search;
  search.algorithm = search::Algorithm::kGumbel;
  SelfplayConfig config = SmallConfig();
  config.setup_record_probability = 1.0f;
  const SelfplayStats stats = Play(config, search, eval, dir.Str(), 24);
  EXPECT_EQ(stats.games_finished, 24);
  EXPECT_EQ(stats.files_written, 6);
  const std::vector<FileGame> games = ReadGames(dir.Str(), 6);
  ASSERT_EQ(games.size(), 24u);
  const Checked c = CheckAgainstRules(games, kStd, 7);
  EXPECT_EQ(c.samples, stats.samples);
  // The interesting cases occurred: swaps (with their pie samples) and moved shooters.
  EXPECT_GT(c.swapped, 0);
  EXPECT_LT(c.swapped, 24);
  EXPECT_GT(c.pie_samples_in_swapped_games, 0);
  EXPECT_GT(c.aux_moved, 0);
  EXPECT_EQ(stats.swaps, c.swapped);
  EXPECT_EQ(stats.wins_black + stats.wins_white, 24);
  EXPECT_EQ(stats.wins_first + stats.wins_second, 24);
  int black = 0;
  for (const FileGame& g : games) black += g.record.winner == 0 ? 1 : 0;
  EXPECT_EQ(stats.wins_black, black);
}

TEST(SelfplayEngine, PlayGamesInMemoryReturnsEveryGameAndWritesNothing) {
  TempDir dir("ignored");
  search::HashEvaluator eval(5);
  SelfplayJob job;
  job.size = 7;
  job.games = 6;
  job.out_dir = dir.Str();  // ignored: nothing is written
  auto games = PlayGamesInMemory(SmallConfig(), search::SearchConfig{}, SmallBatching(), eval, job);
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games.value().size(), 6u);
  std::set<int64_t> indices;
  for (const FinishedGame& g : games.value()) {
    indices.insert(g.index);
    EXPECT_EQ(g.record.samples, g.samples.size());
    EXPECT_FALSE(g.samples.empty());
    EXPECT_GE(g.record.winner, 0);
  }
  EXPECT_EQ(indices.size(), 6u);
  EXPECT_FALSE(std::filesystem::exists(dir.Str()) && !std::filesystem::is_empty(dir.Str()));
}

// Settings out of their ranges are refused before anything is played or written, named by
// section and key as the layers' Validate() say.
TEST(SelfplayEngine, SettingsOutOfRangeAreBadInput) {
  TempDir dir("out");
  search::HashEvaluator eval(11);
  SelfplayJob job;
  job.rules = kStd;
  job.size = 7;
  job.games = 2;
  job.out_dir = dir.Str();
  SelfplayConfig config = SmallConfig();
  config.cheap_simulations = config.full_simulations + 1;
  auto bad = RunSelfplay(config, search::SearchConfig{}, SmallBatching(), eval, job);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.exit_code(), 2);
  EXPECT_EQ(bad.error(), "selfplay." + config.Validate().error());
  EXPECT_NE(bad.error().find("cheap_simulations: "), std::string::npos) << bad.error();
  search::SearchConfig search;
  search.dirichlet_epsilon = 1.5f;
  auto bad_search = RunSelfplay(SmallConfig(), search, SmallBatching(), eval, job);
  ASSERT_FALSE(bad_search.ok());
  EXPECT_EQ(bad_search.error(), "search.dirichlet_epsilon: 1.5 is out of range [0, 1]");
  search::BatchingConfig batching = SmallBatching();
  batching.max_batch = 1;
  auto bad_batching = RunSelfplay(SmallConfig(), search::SearchConfig{}, batching, eval, job);
  ASSERT_FALSE(bad_batching.ok());
  EXPECT_EQ(bad_batching.error(), "evaluator.max_batch: 1 is out of range [2, 65536]");
  EXPECT_TRUE(std::filesystem::is_empty(dir.Str()));
}

TEST(SelfplayEngine, GumbelAndTenByTenGamesAgreeWithTheRules) {
  TempDir dir("out");
  search::HashEvaluator eval(5);
  search::SearchConfig search;
  search.algorithm = search::Algorithm::kGumbel;
  search.gumbel_considered = 4;
  SelfplayConfig config = SmallConfig();
  config.games_per_file = 3;
  const SelfplayStats stats = Play(config, search, eval, dir.Str(), 6);
  const Checked c = CheckAgainstRules(ReadGames(dir.Str(), 2), kStd, 7);
  EXPECT_EQ(c.games, 6);
  EXPECT_EQ(c.samples, stats.samples);

  TempDir big("big");
  search::SearchConfig puct;
  config.cheap_simulations = 2;
  config.full_simulations = 8;
  config.full_search_probability = 0.2f;
  const SelfplayStats s10 = Play(config, puct, eval, big.Str(), 2, kStd, 10);
  const Checked c10 = CheckAgainstRules(ReadGames(big.Str(), 1), kStd, 10);
  EXPECT_EQ(c10.games, 2);
  EXPECT_EQ(c10.samples, s10.samples);
}

TEST(SelfplayEngine, ClassicRulesGamesAgreeWithTheRules) {
  TempDir dir("out");
  search::HashEvaluator eval(3);
  SelfplayConfig config = SmallConfig();
  const SelfplayStats stats =
      Play(config, search::SearchConfig{}, eval, dir.Str(), 4, rules::RuleSet::kClassic, 7);
  const Checked c = CheckAgainstRules(ReadGames(dir.Str(), 1), rules::RuleSet::kClassic, 7);
  EXPECT_EQ(c.games, 4);
  EXPECT_EQ(c.samples, stats.samples);
  EXPECT_EQ(stats.swaps, 0);
}

TEST(SelfplayEngine, FixedSeedIsReproducibleAndSeedsDiffer) {
  search::HashEvaluator eval(2);
  search::SearchConfig search;
  SelfplayConfig config = SmallConfig();
  TempDir a("a"), b("b"), c("c"), d("d");
  Play(config, search, eval, a.Str(), 8);
  Play(config, search, eval, b.Str(), 8);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(Bytes(ChunkPath(a.Str(), "samples", k)), Bytes(ChunkPath(b.Str(), "samples", k)))
        << "file " << k;
  }
  // More threads and another split of games per thread: the same games, as each game's
  // randomness comes from its own seed and the evaluator depends on the position only.
  SelfplayConfig threaded = config;
  threaded.threads = 2;
  threaded.games_in_flight = 3;
  Play(threaded, search, eval, c.Str(), 8);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(Bytes(ChunkPath(a.Str(), "samples", k)), Bytes(ChunkPath(c.Str(), "samples", k)))
        << "file " << k;
  }
  // Another seed: other games.
  SelfplayConfig other = config;
  other.seed = 8;
  Play(other, search, eval, d.Str(), 8);
  const auto ga = ReadGames(a.Str(), 2);
  const auto gd = ReadGames(d.Str(), 2);
  ASSERT_EQ(ga.size(), gd.size());
  int same = 0;
  for (size_t i = 0; i < ga.size(); ++i) same += ga[i].record.record == gd[i].record.record;
  EXPECT_EQ(same, 0);
}

TEST(SelfplayEngine, NoTwoGamesAreIdenticalAndOpeningsAreDiverse) {
  constexpr int kGames = 32;
  search::HashEvaluator eval(4);
  search::SearchConfig search;
  SelfplayConfig config = SmallConfig();
  config.games_per_file = kGames;
  TempDir dir("out");
  Play(config, search, eval, dir.Str(), kGames);
  const auto games = ReadGames(dir.Str(), 1);
  ASSERT_EQ(games.size(), static_cast<size_t>(kGames));
  std::set<std::string> records, setups, black_setups;
  for (const FileGame& g : games) {
    records.insert(g.record.record);
    const std::string setup = testing::SetupPart(g.record.record, kStd, 7);
    setups.insert(setup);
    black_setups.insert(setup.substr(0, setup.find(' ')));
  }
  EXPECT_EQ(records.size(), static_cast<size_t>(kGames));
  // Complete setups (Black's shooter and stone, the pie choice, White's two shooters and
  // stone: millions of them on 7x7) rarely coincide when sampled from the searches'
  // targets. Black's setup alone has 25 * 48 = 1200, but a 16-simulation search visits only
  // a handful of the 25 first placements, so those repeat more often.
  EXPECT_GE(setups.size(), static_cast<size_t>(kGames * 7 / 8));
  EXPECT_GE(black_setups.size(), static_cast<size_t>(kGames / 4));

  // Without setup temperature, root noise and move temperature, the deterministic
  // evaluator makes every game the same: the diversity above comes from the exploration.
  search::SearchConfig greedy = search::ForPlay(search);
  SelfplayConfig flat = config;
  flat.setup_temperature = 0;
  flat.full_search_probability = 1;
  TempDir dir2("greedy");
  Play(flat, greedy, eval, dir2.Str(), 8);
  std::set<std::string> greedy_setups;
  for (const FileGame& g : ReadGames(dir2.Str(), 1)) {
    greedy_setups.insert(testing::SetupPart(g.record.record, kStd, 7));
  }
  EXPECT_EQ(greedy_setups.size(), 1u);
}

TEST(SelfplayEngine, GumbelOpeningsAreDiverse) {
  constexpr int kGames = 16;
  search::HashEvaluator eval(4);
  search::SearchConfig search;
  search.algorithm = search::Algorithm::kGumbel;
  SelfplayConfig config = SmallConfig();
  config.games_per_file = kGames;
  TempDir dir("out");
  Play(config, search, eval, dir.Str(), kGames);
  std::set<std::string> setups;
  for (const FileGame& g : ReadGames(dir.Str(), 1)) {
    setups.insert(testing::SetupPart(g.record.record, kStd, 7));
  }
  EXPECT_GE(setups.size(), static_cast<size_t>(kGames * 7 / 8));
}

// Mean policy target of the swap over the pie decisions of a run.

double MeanSwapTarget(const std::vector<FileGame>& games, int* count) {
  double sum = 0;
  *count = 0;
  for (const FileGame& g : games) {
    for (const Sample& s : g.samples) {
      if (s.position.Pending() != rules::Decision::kPie) continue;
      ++*count;
      for (const PolicyEntry& e : s.policy) {
        if (e.action == s.position.PassAction()) sum += e.prob;
      }
    }
  }
  return *count > 0 ? sum / *count : 0.0;
}

// Uniform priors (the swap one share among about 25 legal actions at the pie decision);
// values favour `favoured` by 0.6.
search::FunctionEvaluator Favouring(rules::Color favoured) {
  return search::FunctionEvaluator([favoured](const rules::Position& p, search::EvalOutput& out) {
    search::FillUniformPolicy(p, out);
    out.value = p.ToMove() == favoured ? 0.6f : -0.6f;
  });
}

TEST(SelfplayEngine, PieSwapIsWeighedAgainstDecliningByItsValue) {
  // Gumbel self-play samples 4 of the ~25 pie actions, but always the swap: when Black is
  // favoured the second player learns to swap (a high target), when White is favoured the
  // target keeps the swap at about its prior share, with no floor raising it. The swap
  // rate follows.
  search::SearchConfig gumbel;
  gumbel.algorithm = search::Algorithm::kGumbel;
  gumbel.gumbel_considered = 4;
  SelfplayConfig config = SmallConfig();
  config.games_per_file = 16;
  config.setup_record_probability = 1.0f;
  TempDir black("black"), white("white");
  auto black_wins = Favouring(rules::Color::kBlack);
  auto white_wins = Favouring(rules::Color::kWhite);
  const SelfplayStats sb = Play(config, gumbel, black_wins, black.Str(), 16);
  const SelfplayStats sw = Play(config, gumbel, white_wins, white.Str(), 16);
  int n_black = 0, n_white = 0;
  const double swap_good = MeanSwapTarget(ReadGames(black.Str(), 1), &n_black);
  const double swap_bad = MeanSwapTarget(ReadGames(white.Str(), 1), &n_white);
  EXPECT_EQ(n_black, 16);
  EXPECT_EQ(n_white, 16);
  EXPECT_GT(swap_good, 0.5);
  EXPECT_LT(swap_bad, 0.02);
  EXPECT_GT(sb.SwapRate(), 0.75);
  EXPECT_LT(sw.SwapRate(), 0.25);
}

TEST(SelfplayEngine, PlayoutCapRecordsOnlyFullSearches) {
  search::HashEvaluator eval(9);
  search::SearchConfig search;
  search.reuse_tree = false;  // a fresh tree per search: the target's visits are its budget
  search.solver = false;
  SelfplayConfig config = SmallConfig();
  config.full_simulations = 50;
  config.cheap_simulations = 7;
  config.full_search_probability = 0.3f;
  config.setup_record_probability = 1.0f;
  config.games_per_file = 10;
  TempDir dir("out");
  const SelfplayStats stats = Play(config, search, eval, dir.Str(), 20);
  const auto games = ReadGames(dir.Str(), 2);
  int64_t samples = 0, decisions = 0, setup_choices = 0, setup_samples = 0;
  for (const FileGame& g : games) {
    samples += static_cast<int64_t>(g.samples.size());
    const Replay r = ReplayRecord(kStd, 7, g.record.record);
    for (const rules::Position& p : r.positions) {
      ++decisions;
      if (IsSetupDecision(p.Pending()) && p.LegalActions().Count() > 1) ++setup_choices;
    }
    for (const Sample& s : g.samples) {
      // Visit counts of a 50-simulation search: multiples of 1/50 summing to 1 (a 7-visit
      // target could not be, unless all its visits went to one action: none has one entry).
      EXPECT_GT(s.policy.size(), 1u);
      for (const PolicyEntry& e : s.policy) {
        EXPECT_NEAR(e.prob * 50, std::round(e.prob * 50), 1e-3);
      }
      if (IsSetupDecision(s.position.Pending())) ++setup_samples;
    }
  }
  EXPECT_EQ(samples, stats.samples);
  EXPECT_EQ(stats.samples, stats.full_decisions);
  // Every decision of the records was searched (full or cheap) or forced.
  EXPECT_EQ(stats.Decisions(), decisions);
  // Setup choices are always full searches (setup_full_search).
  EXPECT_EQ(setup_samples, setup_choices);
  // Play-phase decisions are full with probability 0.3: well within 5 standard deviations.
  const double play_full = static_cast<double>(stats.full_decisions - setup_choices);
  const double play_searched = play_full + static_cast<double>(stats.cheap_decisions);
  ASSERT_GT(play_searched, 300);
  const double sd = std::sqrt(0.3 * 0.7 / play_searched);
  EXPECT_NEAR(play_full / play_searched, 0.3, 5 * sd);
}

TEST(SelfplayEngine, SetupDecisionsAreFullSearchesRecordedWithTheirProbability) {
  search::HashEvaluator eval(9);
  SelfplayConfig config = SmallConfig();
  config.full_search_probability = 0.3f;
  config.setup_record_probability = 0.25f;
  config.games_per_file = 20;
  TempDir dir("out");
  const SelfplayStats stats = Play(config, search::SearchConfig{}, eval, dir.Str(), 40);
  int64_t setup_choices = 0, setup_samples = 0;
  for (const FileGame& g : ReadGames(dir.Str(), 2)) {
    for (const rules::Position& p : ReplayRecord(kStd, 7, g.record.record).positions) {
      if (IsSetupDecision(p.Pending()) && p.LegalActions().Count() > 1) ++setup_choices;
    }
    for (const Sample& s : g.samples) setup_samples += IsSetupDecision(s.position.Pending());
  }
  ASSERT_GT(setup_choices, 150);
  // Every setup choice was a full search, a quarter of them recorded (5 standard
  // deviations).
  const double sd = std::sqrt(0.25 * 0.75 / static_cast<double>(setup_choices));
  EXPECT_NEAR(static_cast<double>(setup_samples) / static_cast<double>(setup_choices), 0.25,
              5 * sd);
  EXPECT_GE(stats.full_decisions, setup_choices);
  EXPECT_LT(stats.samples, stats.full_decisions);
}

}  // namespace
}  // namespace veletas::selfplay
