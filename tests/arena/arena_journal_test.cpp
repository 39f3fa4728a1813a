// Arena journals: the finished games of a gate killed in the middle are taken back on
// resume, a torn or foreign journal is handled, and the decision comes out as an
// uninterrupted run's.
#include "arena/arena_journal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/arena_record.h"
#include "arena/gate.h"
#include "arena/ladder.h"
#include "arena/match_record.h"
#include "search/fake_evaluators.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "util/atomic_file.h"

namespace veletas::arena {
namespace {

namespace fs = std::filesystem;
using test_support::Joined;
using test_support::TempDir;
constexpr rules::RuleSet kStd = rules::RuleSet::kStandard;

ArenaConfig Config(uint64_t seed = 3) {
  ArenaConfig c;
  c.games_in_parallel = 8;
  c.threads = 1;
  c.seed = seed;
  return c;
}

GateSettings Sprt() {
  GateSettings s;
  s.config.method = GateMethod::kSprt;
  s.config.sprt = SprtConfig{0.0, 100.0, 0.05, 0.05};
  s.config.max_games = 24;
  s.batch_games = 8;
  return s;
}

void ExpectSameGames(const std::vector<ArenaGame>& a, const std::vector<ArenaGame>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].record, b[i].record) << i;
    EXPECT_EQ(a[i].a_won, b[i].a_won) << i;
    EXPECT_EQ(a[i].a_colour, b[i].a_colour) << i;
    EXPECT_EQ(a[i].turns, b[i].turns) << i;
  }
}

class ArenaJournalTest : public ::testing::Test {
 protected:
  // Two different deterministic players, so results vary from game to game.
  search::HashEvaluator strong_{4};
  search::HashEvaluator weak_{9};
  ArenaPlayer a_ = MakeGenerationPlayer(2, "gen_2.ckpt", strong_, {}, 8);
  ArenaPlayer b_ = MakeGenerationPlayer(1, "gen_1.ckpt", weak_, {}, 8);

  std::vector<ArenaGame> Reference(int games) {
    Arena arena(a_, b_, kStd, 7, Config());
    arena.Play(games);
    return arena.Games();
  }
};

TEST_F(ArenaJournalTest, RestoredGamesAreTakenInsteadOfPlayed) {
  const std::vector<ArenaGame> ref = Reference(12);
  Arena arena(a_, b_, kStd, 7, Config());
  arena.Restore({ref[9], ref[1], ref[4], ref[5]});
  std::vector<int> played;
  arena.Play(12, {}, [&](const ArenaGame& g) { played.push_back(g.index); });
  std::sort(played.begin(), played.end());
  EXPECT_EQ(played, (std::vector<int>{0, 2, 3, 6, 7, 8, 10, 11}));
  ExpectSameGames(arena.Games(), ref);
}

TEST_F(ArenaJournalTest, PlayGamesPlaysExactlyTheGamesOfThoseIndices) {
  const std::vector<ArenaGame> ref = Reference(12);
  Arena arena(a_, b_, kStd, 7, Config());
  const std::vector<ArenaGame> some = arena.PlayGames({11, 3, 6});
  ASSERT_EQ(some.size(), 3u);
  ExpectSameGames(some, {ref[3], ref[6], ref[11]});
  EXPECT_EQ(arena.GamesPlayed(), 0);  // not the match's games
}

// Games played "elsewhere": by another Arena of the same match, handed over in any order,
// with games the match must refuse among them.
class FakeRemote final : public RemoteGames {
 public:
  FakeRemote(const ArenaPlayer& a, const ArenaPlayer& b) : a_(a), b_(b) {}
  util::Status Play(const RemoteMatch& match, const std::vector<int>& indices,
                    const std::function<util::Status(const ArenaGame&)>& accept) override {
    ++calls;
    asked.insert(asked.end(), indices.begin(), indices.end());
    Arena other(a_, b_, match.arena.Rules(), match.arena.Size(), match.config);
    std::vector<ArenaGame> games = other.PlayGames(indices);
    std::reverse(games.begin(), games.end());
    for (const ArenaGame& g : games) {
      ArenaGame lie = g;  // another pair's game under this index
      lie.index = g.index ^ 2;
      lie.a_first = lie.index % 2 == 0;
      if (!accept(lie).ok()) ++refused;
      ArenaGame bad = g;  // a result that disagrees with the record
      bad.a_won = !bad.a_won;
      if (!accept(bad).ok()) ++refused;
      if (util::Status s = accept(g); !s.ok()) return s;
      if (!accept(g).ok()) ++refused;  // twice
    }
    return util::Ok();
  }
  int calls = 0;
  int refused = 0;
  std::vector<int> asked;

 private:
  ArenaPlayer a_, b_;
};

TEST_F(ArenaJournalTest, ARemoteGateJournalsTheRemoteGamesAndDecidesAsALocalOne) {
  TempDir local("local"), remote_dir("remote");
  auto ref = RunGate(a_, b_, kStd, 7, Sprt(), Config(), local.Str());
  ASSERT_TRUE(ref.ok()) << ref.error();
  FakeRemote remote(a_, b_);
  auto got = RunGate(a_, b_, kStd, 7, Sprt(), Config(), remote_dir.Str(), "", {}, &remote);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got.value().evidence.decision, ref.value().evidence.decision);
  EXPECT_EQ(got.value().evidence.games, ref.value().evidence.games);
  EXPECT_EQ(got.value().evidence.wins, ref.value().evidence.wins);
  EXPECT_EQ(remote.calls, (ref.value().evidence.games + 7) / 8);
  EXPECT_EQ(static_cast<int>(remote.asked.size()), ref.value().evidence.games);
  // Each game: the wrong pair's opening (or the same game under another index) is refused,
  // as are the wrong result and the second copy.
  EXPECT_GE(remote.refused, 2 * ref.value().evidence.games);
  std::string ref_records, records;
  const std::string name = "gate_gen_2-vs-gen_1";
  ASSERT_TRUE(test_support::ReadInto((fs::path(local.Str()) / RecordsFileName(name)).string(),
                                     ref_records));
  ASSERT_TRUE(test_support::ReadInto((fs::path(remote_dir.Str()) / RecordsFileName(name)).string(),
                                     records));
  EXPECT_EQ(records, ref_records);
}

TEST_F(ArenaJournalTest, AKilledGateResumesFromItsJournalToTheSameDecision) {
  TempDir uninterrupted("ref");
  auto ref = RunGate(a_, b_, kStd, 7, Sprt(), Config(), uninterrupted.Str());
  ASSERT_TRUE(ref.ok()) << ref.error();
  const std::string name = "gate_gen_2-vs-gen_1";
  EXPECT_FALSE(fs::exists(MatchJournalPath(uninterrupted.Str(), name)));
  const std::vector<ArenaGame> games = Reference(ref.value().evidence.games);

  // What a run killed during its second batch leaves: games 0-7 and some of 8-15, in
  // finishing order, and half a line.
  TempDir killed("killed");
  {
    Arena arena(a_, b_, kStd, 7, Config());
    std::vector<ArenaGame> restored;
    std::vector<std::string> notes;
    auto journal = MatchJournal::Open(killed.Str(), name, arena, Config(), restored, notes);
    ASSERT_TRUE(journal.ok()) << journal.error();
    EXPECT_TRUE(restored.empty());
    for (int i : {1, 0, 2, 3, 5, 4, 6, 7, 9, 8, 12}) {
      ArenaGame g = games[static_cast<size_t>(i)];
      g.worker = "w" + std::to_string(i % 3);  // as a learner journals its workers' games
      ASSERT_EQ(test_support::ErrorText(journal.value().Append(g)), "");
    }
    ASSERT_EQ(
        test_support::ErrorText(util::AppendFile(journal.value().Path(), "{\"index\": 10, \"a_fi")),
        "");
  }
  auto resumed = RunGate(a_, b_, kStd, 7, Sprt(), Config(), killed.Str());
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  const std::string notes = Joined(resumed.value().notes);
  const std::string journal = MatchJournalPath(killed.Str(), name);
  EXPECT_NE(notes.find(journal + ":13: torn"), std::string::npos) << notes;
  EXPECT_NE(notes.find(journal + ": 11 finished games taken back"), std::string::npos) << notes;
  EXPECT_FALSE(fs::exists(journal));
  const GateEvidence& e = resumed.value().evidence;
  EXPECT_EQ(e.decision, ref.value().evidence.decision);
  EXPECT_EQ(e.games, ref.value().evidence.games);
  EXPECT_EQ(e.wins, ref.value().evidence.wins);
  EXPECT_DOUBLE_EQ(e.llr, ref.value().evidence.llr);
  // Who played each game survives the journal and the match record (read back from its file).
  const RunMatches saved = LoadRunMatches(killed.Str());
  ASSERT_EQ(saved.matches.size(), 1u);
  const std::vector<MatchGame>& played = saved.matches[0].games;
  ASSERT_EQ(played.size(), static_cast<size_t>(e.games));
  for (size_t i = 0; i < played.size(); ++i) {
    const bool journaled = i <= 9 || i == 12;
    EXPECT_EQ(played[i].worker, journaled ? "w" + std::to_string(i % 3) : "") << i;
    EXPECT_EQ(resumed.value().record.games[i].worker, played[i].worker) << i;
  }
  std::string ref_records, records;
  ASSERT_TRUE(test_support::ReadInto(
      (fs::path(uninterrupted.Str()) / RecordsFileName(name)).string(), ref_records));
  ASSERT_TRUE(
      test_support::ReadInto((fs::path(killed.Str()) / RecordsFileName(name)).string(), records));
  EXPECT_EQ(records, ref_records);
}

TEST_F(ArenaJournalTest, AFailingEvaluatorIsAnErrorAndTheGateResumesFromItsJournal) {
  TempDir uninterrupted("ref");
  auto ref = RunGate(a_, b_, kStd, 7, Sprt(), Config(), uninterrupted.Str());
  ASSERT_TRUE(ref.ok()) << ref.error();

  // The candidate's backend fails after a while: the gate returns the error (no exception
  // reaches the caller, e.g. the pipeline) and keeps the games finished before it.
  TempDir dir("failing");
  std::atomic<int> calls = 0;
  search::FunctionEvaluator failing([&](const rules::Position& p, search::EvalOutput& out) {
    if (++calls > 2500) throw std::runtime_error("backend failed");
    out = strong_.EvaluateOne(p);
  });
  const ArenaPlayer a = MakeGenerationPlayer(2, "gen_2.ckpt", failing, {}, 8);
  auto failed = RunGate(a, b_, kStd, 7, Sprt(), Config(), dir.Str());
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().find("match gate_gen_2-vs-gen_1: backend failed"), std::string::npos)
      << failed.error();
  const std::string journal = MatchJournalPath(dir.Str(), "gate_gen_2-vs-gen_1");
  std::string kept;
  ASSERT_TRUE(test_support::ReadInto(journal, kept));
  const auto games_kept = std::count(kept.begin(), kept.end(), '\n') - 1;  // less the header
  EXPECT_GE(games_kept, 1);
  EXPECT_LT(games_kept, ref.value().evidence.games);

  auto resumed = RunGate(a_, b_, kStd, 7, Sprt(), Config(), dir.Str());
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  EXPECT_NE(Joined(resumed.value().notes)
                .find(journal + ": " + std::to_string(games_kept) + " finished games taken back"),
            std::string::npos)
      << Joined(resumed.value().notes);
  EXPECT_EQ(resumed.value().evidence.decision, ref.value().evidence.decision);
  EXPECT_EQ(resumed.value().evidence.games, ref.value().evidence.games);
  EXPECT_EQ(resumed.value().evidence.wins, ref.value().evidence.wins);
}

TEST_F(ArenaJournalTest, AJournalLeftNextToAFinishedMatchIsRemovedOnResume) {
  // A run killed after saving a match but before removing its journal.
  TempDir dir("finished");
  auto first = RunGate(a_, b_, kStd, 7, Sprt(), Config(), dir.Str());
  ASSERT_TRUE(first.ok()) << first.error();
  const std::string name = "gate_gen_2-vs-gen_1";
  const std::string journal = MatchJournalPath(dir.Str(), name);
  ASSERT_EQ(test_support::ErrorText(util::WriteFileAtomic(journal, "{\"journal\": 1}\n")), "");
  auto again = RunGate(a_, b_, kStd, 7, Sprt(), Config(), dir.Str());
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE(again.value().resumed);
  EXPECT_EQ(again.value().evidence.games, first.value().evidence.games);
  EXPECT_FALSE(fs::exists(journal));
  EXPECT_NE(Joined(again.value().notes).find(journal + ": removed (its match file is complete)"),
            std::string::npos)
      << Joined(again.value().notes);

  // The same for a ladder match, through ReadFinishedMatch.
  LadderConfig ladder;
  ladder.uct_anchors = {};
  ladder.games_vs_anchors = 4;
  auto round = RunLadderRound(dir.Str(), kStd, 7, a_, {}, Config(), ladder);
  ASSERT_TRUE(round.ok()) << round.error();
  ASSERT_EQ(round.value().matches.size(), 1u);
  const std::string ladder_journal = MatchJournalPath(dir.Str(), round.value().matches[0].name);
  ASSERT_EQ(test_support::ErrorText(util::WriteFileAtomic(ladder_journal, "{\"journal\": 1}\n")),
            "");
  auto rerun = RunLadderRound(dir.Str(), kStd, 7, a_, {}, Config(), ladder);
  ASSERT_TRUE(rerun.ok()) << rerun.error();
  ASSERT_EQ(rerun.value().matches.size(), 1u);
  EXPECT_TRUE(rerun.value().matches[0].existed);
  EXPECT_FALSE(fs::exists(ladder_journal));
  EXPECT_EQ(rerun.value().matches[0].notes.size(), 1u);
}

TEST_F(ArenaJournalTest, BadLinesEndTheReadingAndAreCutOff) {
  TempDir dir("bad");
  const std::vector<ArenaGame> games = Reference(4);
  const std::string name = "m";
  Arena arena(a_, b_, kStd, 7, Config());
  std::vector<ArenaGame> restored;
  std::vector<std::string> notes;
  auto journal = MatchJournal::Open(dir.Str(), name, arena, Config(), restored, notes);
  ASSERT_TRUE(journal.ok()) << journal.error();
  ASSERT_EQ(test_support::ErrorText(journal.value().Append(games[0])), "");
  const uint64_t good = fs::file_size(journal.value().Path());
  ArenaGame lie = games[1];
  lie.a_won = !lie.a_won;  // the result no longer matches the record
  ASSERT_EQ(test_support::ErrorText(journal.value().Append(lie)), "");
  ASSERT_EQ(test_support::ErrorText(journal.value().Append(games[2])), "");
  auto again = MatchJournal::Open(dir.Str(), name, arena, Config(), restored, notes);
  ASSERT_TRUE(again.ok()) << again.error();
  ASSERT_EQ(restored.size(), 1u);
  EXPECT_EQ(restored[0].record, games[0].record);
  EXPECT_NE(Joined(notes).find(":3: the result disagrees with the record"), std::string::npos)
      << Joined(notes);
  EXPECT_EQ(fs::file_size(journal.value().Path()), good);

  // Game 0 twice.
  ASSERT_EQ(test_support::ErrorText(journal.value().Append(games[0])), "");
  restored.clear();
  notes.clear();
  ASSERT_TRUE(MatchJournal::Open(dir.Str(), name, arena, Config(), restored, notes).ok());
  EXPECT_EQ(restored.size(), 1u);
  EXPECT_NE(Joined(notes).find("game 0 appears twice"), std::string::npos) << Joined(notes);

  // The same match name with another seed: the journal is not this match's.
  Arena other(a_, b_, kStd, 7, Config(4));
  restored.clear();
  notes.clear();
  auto fresh = MatchJournal::Open(dir.Str(), name, other, Config(4), restored, notes);
  ASSERT_TRUE(fresh.ok()) << fresh.error();
  EXPECT_TRUE(restored.empty());
  EXPECT_NE(Joined(notes).find("another setup of this match"), std::string::npos) << Joined(notes);
  restored.clear();
  notes.clear();
  ASSERT_TRUE(MatchJournal::Open(dir.Str(), name, other, Config(4), restored, notes).ok());
  EXPECT_TRUE(restored.empty());
  EXPECT_TRUE(notes.empty()) << Joined(notes);  // a fresh journal with only its header
}

}  // namespace
}  // namespace veletas::arena
