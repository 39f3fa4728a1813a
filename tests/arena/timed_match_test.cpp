// Matches with a time per turn (player specs uct:Tms, mcts:CKPT:Tms): the specs, what
// ValidateArena refuses, a timed match played through the `timed` factory (here a fake one:
// UCT with a fixed number of playouts that reports them, so that nothing depends on time),
// and a killed timed match resumed from its journal, with the time control in its record.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "arena/arena.h"
#include "arena/arena_journal.h"
#include "arena/match_record.h"
#include "arena/player_spec.h"
#include "search/player.h"
#include "search/uct_player.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace veletas::arena {
namespace {

using test_support::TempDir;
constexpr rules::RuleSet kStd = rules::RuleSet::kStandard;
constexpr int kPlayouts = 24;

// A UCT player of kPlayouts playouts per turn that reports them as its simulations.
class CountingPlayer final : public search::Player {
 public:
  explicit CountingPlayer(uint64_t seed)
      : inner_(
            search::MakeUctPlayer(search::UctConfig{.playouts = kPlayouts, .threads = 1}, seed)) {}
  std::string Name() const override { return "counting"; }
  search::TurnChoice ChooseTurn(const rules::Position& pos) override {
    search::TurnChoice c = inner_->ChooseTurn(pos);
    c.simulations = kPlayouts;
    return c;
  }
  void NewGame() override { inner_->NewGame(); }
  void Seed(uint64_t seed) override { inner_->Seed(seed); }

 private:
  std::unique_ptr<search::Player> inner_;
};

ArenaPlayer Timed(const std::string& spec_text) {
  auto spec = ParsePlayerSpec(spec_text);
  EXPECT_TRUE(spec.ok()) << spec_text;
  ArenaPlayer p = MakeBaselinePlayer(spec.value());
  p.timed = [](uint64_t seed) { return std::make_unique<CountingPlayer>(seed); };
  return p;
}

ArenaPlayer Random() { return MakeBaselinePlayer(PlayerSpec{}); }

ArenaConfig Config(int parallel, int threads) {
  ArenaConfig c;
  c.games_in_parallel = parallel;
  c.threads = threads;
  c.seed = 11;
  return c;
}

TEST(TimedSpec, ATimeInPlaceOfTheBudgetIsMillisecondsPerTurn) {
  auto r = ParsePlayerSpec("uct:100ms");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().kind, PlayerKind::kUct);
  EXPECT_EQ(r.value().time_ms, 100);
  EXPECT_EQ(r.value().budget, 0);
  EXPECT_TRUE(r.value().Timed());
  EXPECT_EQ(r.value().ToString(), "uct:100ms");
  EXPECT_EQ(DefaultPlayerName(r.value()), "uct_100ms");
  r = ParsePlayerSpec("uct:250ms:0.7");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().time_ms, 250);
  EXPECT_EQ(r.value().ToString(), "uct:250ms:0.7");
  r = ParsePlayerSpec("mcts:runs/a:b/gen_3.ckpt:1000ms:int8");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().checkpoint, "runs/a:b/gen_3.ckpt");
  EXPECT_EQ(r.value().time_ms, 1000);
  EXPECT_EQ(r.value().precision, "int8");
  EXPECT_EQ(r.value().ToString(), "mcts:runs/a:b/gen_3.ckpt:1000ms:int8");
  EXPECT_FALSE(ParsePlayerSpec("uct:1000").value().Timed());
}

TEST(TimedSpec, TimesOutOfRangeNameTheSpecAndTheRange) {
  for (const char* bad : {"uct:0ms", "uct:-5ms", "uct:600001ms", "uct:99999999999ms", "uct:1.5ms",
                          "mcts:a.ckpt:0ms", "mcts:a.ckpt:-1ms:int8"}) {
    auto r = ParsePlayerSpec(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error(), "player \"" + std::string(bad) +
                             "\": the time per turn T in Tms must be in [1, 600000] ms");
  }
  EXPECT_TRUE(ParsePlayerSpec("uct:600000ms").ok());
  // "ms" alone is no time.
  EXPECT_NE(ParsePlayerSpec("uct:ms").error().find("unknown player"), std::string::npos);
}

TEST(TimedMatch, ValidateRefusesATimedPlayerWithoutFactoryAndMoreGamesThanThreads) {
  EXPECT_TRUE(ValidateArena(Timed("uct:50ms"), Random(), kStd, 7, Config(2, 2)).ok());
  ArenaPlayer bare = Timed("uct:50ms");
  bare.timed = nullptr;
  const util::Status no_factory = ValidateArena(Random(), bare, kStd, 7, Config(2, 2));
  ASSERT_FALSE(no_factory.ok());
  EXPECT_EQ(no_factory.error(),
            "player B (uct_50ms): a player with a time per turn (uct:50ms) is played by "
            "`veletas match` only");
  EXPECT_EQ(no_factory.exit_code(), 2);
  const util::Status crowded = ValidateArena(Timed("uct:50ms"), Random(), kStd, 7, Config(4, 2));
  ASSERT_FALSE(crowded.ok());
  EXPECT_EQ(crowded.error(),
            "a match with a time per turn plays one game per thread: games in parallel (4) "
            "must not exceed threads (2)");
}

TEST(TimedMatch, TimedPlayersPlayLegalGamesAndTheirSimulationsAreCounted) {
  Arena arena(Timed("uct:50ms"), Random(), kStd, 7, Config(2, 2));
  arena.Play(6);
  ASSERT_EQ(arena.GamesPlayed(), 6);
  for (const ArenaGame& g : arena.Games()) {
    EXPECT_EQ(test_support::ErrorText(ValidateArenaGame(g, kStd, 7)), "") << g.index;
  }
  const ArenaStats& st = arena.Stats();
  EXPECT_GT(st.timed_turns[0], 0u);
  EXPECT_EQ(st.timed_turns[1], 0u);  // random is not timed
  EXPECT_DOUBLE_EQ(st.MeanTimedSimulations(0), kPlayouts);
  EXPECT_DOUBLE_EQ(st.MeanTimedSimulations(1), 0.0);
}

TEST(TimedMatch, AKilledTimedMatchResumesAndItsRecordSaysTheTimeControl) {
  TempDir dir("timed");
  const std::string name = "uct_50ms-vs-random";
  const ArenaPlayer a = Timed("uct:50ms");
  const ArenaPlayer b = Random();
  int first_run = 0;
  {
    JournaledMatch match(dir.Str(), name, a, b, kStd, 7, Config(1, 1));
    std::vector<std::string> notes;
    ASSERT_EQ(test_support::ErrorText(match.Open(notes)), "");
    std::atomic<bool> stop{false};
    match.SetStop(&stop);
    // Killed after its third game: the journal keeps them.
    ASSERT_EQ(test_support::ErrorText(match.Play(8,
                                                 [&](const ArenaProgress& p) {
                                                   if (p.games_done >= 3) stop = true;
                                                 })),
              "");
    first_run = match.arena().GamesPlayed();
  }
  ASSERT_EQ(first_run, 3);
  JournaledMatch resumed(dir.Str(), name, a, b, kStd, 7, Config(1, 1));
  std::vector<std::string> notes;
  ASSERT_EQ(test_support::ErrorText(resumed.Open(notes)), "");
  EXPECT_EQ(resumed.Restored(), 3);
  ASSERT_EQ(test_support::ErrorText(resumed.Play(8, {})), "");
  auto saved = resumed.Save(std::nullopt);
  ASSERT_TRUE(saved.ok()) << saved.error();
  EXPECT_EQ(saved.value().games.size(), 8u);
  const RunMatches read = LoadRunMatches(dir.Str());
  ASSERT_EQ(read.matches.size(), 1u);
  EXPECT_EQ(read.matches[0].a.spec, "uct:50ms");
  EXPECT_EQ(read.matches[0].a.name, "uct_50ms");
  EXPECT_EQ(read.matches[0].games.size(), 8u);
}

TEST(TimedMatch, AnotherTimePerTurnIsAnotherMatchForTheJournal) {
  const ArenaConfig config = Config(1, 1);
  const Arena fifty(Timed("uct:50ms"), Random(), kStd, 7, config);
  const Arena sixty(Timed("uct:60ms"), Random(), kStd, 7, config);
  const std::string header = MatchJournalHeader("m", fifty, config);
  EXPECT_NE(header.find("uct:50ms"), std::string::npos) << header;
  EXPECT_NE(header, MatchJournalHeader("m", sixty, config));
}

}  // namespace
}  // namespace veletas::arena
