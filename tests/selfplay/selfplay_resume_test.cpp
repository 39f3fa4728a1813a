// Output files and resuming: a run finds the complete files (and the journals of incomplete
// ones) of an earlier run in its output directory and plays exactly the games of the
// missing (or unreadable) ones, which, with a
// deterministic evaluator, come out byte for byte as an uninterrupted run writes them.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <functional>
#include <set>
#include <stdexcept>

#include "data/game_journal.h"
#include "data/sample_dir.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "selfplay_test_util.h"
#include "util/atomic_file.h"
#include "util/run_dir.h"

namespace veletas::selfplay {
namespace {

// The journal at `path` read, expecting no error (entries of this build only).
data::JournalContents ReadJournalOk(const std::string& path, rules::RuleSet rules, int size,
                                   uint64_t first, uint64_t count) {
  auto read = data::ReadJournal(path, rules, size, first, count);
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error());
  return read.ok() ? std::move(read.value()) : data::JournalContents{};
}

using testing::Bytes;
using testing::Joined;
using testing::SmallBatching;
using testing::SmallConfig;
using testing::TempDir;
namespace fs = std::filesystem;

constexpr int kGames = 12;  // three files of four games
constexpr int kFiles = 3;

struct RunOutput {
  util::Result<SelfplayStats> result = util::Result<SelfplayStats>::Error("not run");
  std::vector<std::string> log;
};

RunOutput Play(const std::string& dir, search::Evaluator& eval,
               SelfplayConfig config = SmallConfig(), rules::RuleSet rs = rules::RuleSet::kStandard,
               int games = kGames,
               const std::function<void(const SelfplayStats&)>& progress = nullptr,
               const std::atomic<bool>* stop = nullptr) {
  RunOutput run;
  SelfplayJob job;
  job.rules = rs;
  job.size = 7;
  job.games = games;
  job.out_dir = dir;
  SelfplayHooks hooks;
  hooks.log = [&run](const std::string& m) { run.log.push_back(m); };
  hooks.progress = progress;
  hooks.progress_seconds = 0.001;
  hooks.stop = stop;
  run.result = RunSelfplay(config, search::SearchConfig{}, SmallBatching(), eval, job, hooks);
  return run;
}

// The games of a sample file, each as a sample file of its own (what a journal holds).
std::vector<data::SampleFile> SplitGames(const data::SampleFile& file) {
  std::vector<data::SampleFile> out;
  size_t next = 0;
  for (const data::GameRecord& g : file.games) {
    data::SampleFile one;
    one.rules = file.rules;
    one.size = file.size;
    one.games.push_back(g);
    for (uint32_t i = 0; i < g.samples; ++i) one.samples.push_back(file.samples[next++]);
    out.push_back(std::move(one));
  }
  EXPECT_EQ(next, file.samples.size());
  return out;
}

// Finished games a stopped run kept: 4 per complete file plus the journals' games.
int64_t KeptGames(const std::string& dir) {
  int64_t kept = 0;
  for (int k = 0; k < kFiles; ++k) {
    if (fs::exists(data::ChunkPath(dir, "samples", k))) {
      kept += 4;
    } else {
      const data::JournalContents j = ReadJournalOk(data::JournalPath(dir, "samples", k),
                                                    rules::RuleSet::kStandard, 7, 4 * k, 4);
      EXPECT_EQ(j.note, "") << k;
      kept += static_cast<int64_t>(j.games.size());
    }
  }
  return kept;
}

bool AnyJournal(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".part") return true;
  }
  return false;
}

class SelfplayResume : public ::testing::Test {
 protected:
  void SetUp() override {
    const RunOutput run = Play(reference_.Str(), eval_);
    ASSERT_TRUE(run.result.ok()) << run.result.error();
    for (int k = 0; k < kFiles; ++k) files_.push_back(Bytes(Ref(k)));
  }
  std::string Ref(int k) const { return data::ChunkPath(reference_.Str(), "samples", k); }
  std::string Out(int k) const { return data::ChunkPath(out_.Str(), "samples", k); }
  void CopyReference() {
    fs::create_directories(out_.Str());
    for (int k = 0; k < kFiles; ++k) fs::copy_file(Ref(k), Out(k));
  }
  // The games of reference file k, each as a one-game sample file (what a journal holds).
  std::vector<data::SampleFile> RefGames(int k) const {
    const auto file = data::ReadSampleFile(Ref(k));
    EXPECT_TRUE(file.ok()) << file.error();
    return file.ok() ? SplitGames(file.value()) : std::vector<data::SampleFile>{};
  }
  void ExpectSameAsReference() {
    for (int k = 0; k < kFiles; ++k) EXPECT_EQ(Bytes(Out(k)), files_[k]) << "file " << k;
  }

  search::HashEvaluator eval_{21};
  TempDir reference_{"reference"};
  TempDir out_{"out"};
  std::vector<std::string> files_;
};

TEST_F(SelfplayResume, CompleteDirectoryPlaysNothing) {
  CopyReference();
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  EXPECT_EQ(run.result.value().games_resumed, kGames);
  EXPECT_EQ(run.result.value().games_target, 0);
  EXPECT_EQ(run.result.value().games_finished, 0);
  EXPECT_EQ(run.result.value().files_written, 0);
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, DeletedAndCorruptFilesArePlayedAgain) {
  CopyReference();
  fs::remove(Out(1));
  std::string corrupt = files_[2];
  corrupt[corrupt.size() / 2] ^= 0x40;
  ASSERT_EQ(test_support::ErrorText(util::WriteFileAtomic(Out(2), corrupt)), "");
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  const SelfplayStats& s = run.result.value();
  EXPECT_EQ(s.games_resumed, 4);
  EXPECT_EQ(s.games_target, 8);
  EXPECT_EQ(s.games_finished, 8);
  EXPECT_EQ(s.files_written, 2);
  const std::string log = Joined(run.log);
  EXPECT_NE(log.find(Out(2) + ": corrupt"), std::string::npos) << log;
  EXPECT_NE(log.find("skipped"), std::string::npos) << log;
  EXPECT_EQ(log.find(Out(0) + ":"), std::string::npos) << log;
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, TruncatedFileIsSkippedWithItsName) {
  CopyReference();
  fs::resize_file(Out(0), files_[0].size() / 2);
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  EXPECT_EQ(run.result.value().games_finished, 4);
  const std::string log = Joined(run.log);
  EXPECT_NE(log.find(Out(0) + ": truncated"), std::string::npos) << log;
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, StaleTemporaryFilesAreRemovedAndOtherFilesLeftAlone) {
  CopyReference();
  fs::remove(Out(2));
  const std::string stale = Out(2) + ".tmp.12345";
  const std::string other = out_.File("notes.txt");
  std::ofstream(stale) << "half a file";
  std::ofstream(other) << "mine";
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  EXPECT_EQ(run.result.value().games_finished, 4);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_EQ(Bytes(other), "mine");
  EXPECT_NE(Joined(run.log).find(stale + ": removed"), std::string::npos);
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, StoppedRunResumesToTheSameFiles) {
  std::atomic<bool> stop{false};
  const RunOutput first = Play(
      out_.Str(), eval_, SmallConfig(), rules::RuleSet::kStandard, kGames,
      [&](const SelfplayStats& s) {
        if (s.games_finished >= 3) stop = true;
      },
      &stop);
  ASSERT_TRUE(first.result.ok()) << first.result.error();
  ASSERT_TRUE(stop.load());
  EXPECT_LT(first.result.value().games_finished, kGames);
  // Every finished game was kept: in a complete file or in its file's journal.
  EXPECT_EQ(KeptGames(out_.Str()), first.result.value().games_finished);
  const RunOutput second = Play(out_.Str(), eval_);
  ASSERT_TRUE(second.result.ok()) << second.result.error();
  EXPECT_EQ(second.result.value().games_resumed, first.result.value().games_finished);
  EXPECT_EQ(second.result.value().games_resumed + second.result.value().games_finished, kGames);
  EXPECT_FALSE(AnyJournal(out_.Str()));
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, JournalGamesAreTakenBackAndATornEntryIsPlayedAgain) {
  CopyReference();
  fs::remove(Out(1));
  const std::vector<data::SampleFile> games = RefGames(1);
  ASSERT_EQ(games.size(), 4u);
  const std::string journal = data::JournalPath(out_.Str(), "samples", 1);
  // Appended out of order, as threads finish them; the last entry is torn by a kill.
  for (int g : {2, 0, 3})
    ASSERT_EQ(test_support::ErrorText(data::AppendJournalGame(journal, 4 + g, games[g])), "");
  fs::resize_file(journal, fs::file_size(journal) - 10);
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  EXPECT_EQ(run.result.value().games_resumed, 8 + 2);
  EXPECT_EQ(run.result.value().games_finished, 2);
  const std::string log = Joined(run.log);
  EXPECT_NE(log.find(journal + ": entry 3 (byte "), std::string::npos) << log;
  EXPECT_NE(log.find("truncated"), std::string::npos) << log;
  EXPECT_NE(log.find(journal + ": 2 finished games taken back"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(journal));
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, AJournalWhollyTakenBackIsWrittenWithoutPlaying) {
  CopyReference();
  fs::remove(Out(2));
  const std::vector<data::SampleFile> games = RefGames(2);
  ASSERT_EQ(games.size(), 4u);
  const std::string journal = data::JournalPath(out_.Str(), "samples", 2);
  for (int g = 0; g < 4; ++g)
    ASSERT_EQ(test_support::ErrorText(data::AppendJournalGame(journal, 8 + g, games[g])), "");
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  EXPECT_EQ(run.result.value().games_finished, 0);
  EXPECT_EQ(run.result.value().files_written, 1);
  EXPECT_FALSE(fs::exists(journal));
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, TheJournalOfACompleteFileIsRemoved) {
  CopyReference();
  const std::string journal = data::JournalPath(out_.Str(), "samples", 0);
  std::ofstream(journal) << "left by a kill between the file's rename and this removal";
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_TRUE(run.result.ok()) << run.result.error();
  EXPECT_EQ(run.result.value().games_finished, 0);
  EXPECT_NE(Joined(run.log).find(journal + ": removed (its file is complete)"), std::string::npos);
  EXPECT_FALSE(fs::exists(journal));
  ExpectSameAsReference();
}

TEST(GameJournal, EntriesOfOtherFilesOrGarbageEndTheReadingAndAreCut) {
  TempDir dir("journal");
  const std::string path = data::JournalPath(dir.Str(), "samples", 1);
  data::SampleFile one;
  one.rules = rules::RuleSet::kStandard;
  one.size = 7;
  data::GameRecord g;
  g.record = "d4/e4";
  g.winner = 0;
  one.games.push_back(g);
  ASSERT_EQ(test_support::ErrorText(data::AppendJournalGame(path, 5, one)), "");
  const uint64_t good = fs::file_size(path);
  ASSERT_EQ(test_support::ErrorText(data::AppendJournalGame(path, 0, one)),
            "");  // game 0 belongs to file 0
  ASSERT_EQ(test_support::ErrorText(data::AppendJournalGame(path, 6, one)), "");
  data::JournalContents j = ReadJournalOk(path, rules::RuleSet::kStandard, 7, 4, 4);
  ASSERT_EQ(j.games.size(), 1u);
  EXPECT_EQ(j.games[0].index, 5u);
  EXPECT_EQ(j.games[0].game.games[0].record, "d4/e4");
  EXPECT_NE(j.note.find("entry 2"), std::string::npos) << j.note;
  EXPECT_NE(j.note.find("game 0 does not belong to this file"), std::string::npos) << j.note;
  EXPECT_EQ(fs::file_size(path), good);  // cut back: later appends follow good entries
  ASSERT_EQ(test_support::ErrorText(data::AppendJournalGame(path, 5, one)), "");
  j = ReadJournalOk(path, rules::RuleSet::kStandard, 7, 4, 4);
  EXPECT_EQ(j.games.size(), 1u);
  EXPECT_NE(j.note.find("game 5 appears twice"), std::string::npos) << j.note;
  j = ReadJournalOk(path, rules::RuleSet::kClassic, 7, 4, 4);
  EXPECT_TRUE(j.games.empty());
  EXPECT_NE(j.note.find("not one game of this run's rules"), std::string::npos) << j.note;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "garbage garbage garbage garbage";
  j = ReadJournalOk(path, rules::RuleSet::kStandard, 7, 4, 4);
  EXPECT_TRUE(j.games.empty());
  EXPECT_NE(j.note.find("not a journal entry"), std::string::npos) << j.note;
  EXPECT_TRUE(
      ReadJournalOk(dir.File("absent.part"), rules::RuleSet::kStandard, 7, 0, 4).games.empty());
}

TEST_F(SelfplayResume, FailingEvaluatorLosesOnlyIncompleteFiles) {
  // The backend fails after a while (as a killed process would stop): the error is
  // returned, the files written so far are complete, and a resumed run completes the set.
  int calls = 0;
  search::HashEvaluator hash(21);
  search::FunctionEvaluator failing([&](const rules::Position& p, search::EvalOutput& out) {
    if (++calls > 6000) throw std::runtime_error("backend failed");
    out = hash.EvaluateOne(p);
  });
  const RunOutput first = Play(out_.Str(), failing);
  ASSERT_FALSE(first.result.ok());
  EXPECT_NE(first.result.error().find("backend failed"), std::string::npos);
  int complete = 0;
  for (int k = 0; k < kFiles; ++k) {
    if (fs::exists(Out(k))) {
      ++complete;
      EXPECT_EQ(Bytes(Out(k)), files_[k]);
    }
  }
  EXPECT_GE(complete, 1);
  EXPECT_LT(complete, kFiles);
  const int64_t kept = KeptGames(out_.Str());
  EXPECT_GE(kept, 4 * complete);
  const RunOutput second = Play(out_.Str(), eval_);
  ASSERT_TRUE(second.result.ok()) << second.result.error();
  EXPECT_EQ(second.result.value().games_resumed, kept);
  ExpectSameAsReference();
}

TEST_F(SelfplayResume, AnotherRunsDirectoryIsAnError) {
  CopyReference();
  SelfplayConfig other = SmallConfig();
  other.games_per_file = 5;
  const RunOutput run = Play(out_.Str(), eval_, other);
  ASSERT_FALSE(run.result.ok());
  EXPECT_NE(run.result.error().find(Out(0) + ": holds 4 games"), std::string::npos)
      << run.result.error();
  const RunOutput classic = Play(out_.Str(), eval_, SmallConfig(), rules::RuleSet::kClassic);
  ASSERT_FALSE(classic.result.ok());
  EXPECT_NE(classic.result.error().find("standard 7x7"), std::string::npos)
      << classic.result.error();
  ExpectSameAsReference();  // nothing was touched
}

// Defect 6 of issue 13: a prefix that would leave the output directory is bad input, and
// nothing is written anywhere.
TEST_F(SelfplayResume, APrefixThatIsAPathIsRefusedAndNothingIsWritten) {
  const TempDir parent("parent");
  const std::string out = parent.File("out");
  for (const char* prefix : {"../escaped", "a/b", ".hidden", ""}) {
    SelfplayJob job;
    job.size = 7;
    job.games = 4;
    job.out_dir = out;
    job.prefix = prefix;
    const util::Result<SelfplayStats> r =
        RunSelfplay(SmallConfig(), search::SearchConfig{}, SmallBatching(), eval_, job);
    ASSERT_FALSE(r.ok()) << prefix;
    EXPECT_EQ(r.kind(), util::ErrorKind::kBadInput);
    EXPECT_NE(r.error().find("sample file prefix"), std::string::npos) << r.error();
  }
  // Refused before anything was created.
  EXPECT_TRUE(fs::is_empty(parent.Path()));
}

// Like a pipeline's run directory, an output directory has one writer at a time.
TEST_F(SelfplayResume, ASecondRunOnTheSameDirectoryIsRefused) {
  util::DirectoryLock other;  // another process's lock, as far as flock is concerned
  ASSERT_TRUE(other.Acquire(out_.Str()).ok());
  const RunOutput run = Play(out_.Str(), eval_);
  ASSERT_FALSE(run.result.ok());
  EXPECT_NE(run.result.error().find(out_.Str() + " is in use by another veletas process"),
            std::string::npos)
      << run.result.error();
  EXPECT_FALSE(fs::exists(Out(0)));
}

TEST(SampleDir, ChunksCoverTheGamesOnce) {
  for (int per_file : {1, 3, 4, 100}) {
    for (int64_t games : {0, 1, 11, 12, 13}) {
      int64_t total = 0;
      for (int64_t k = 0; k < data::ChunkCount(games, per_file); ++k) {
        const int64_t n = data::ChunkGames(k, games, per_file);
        EXPECT_GE(n, 1);
        EXPECT_LE(n, per_file);
        total += n;
      }
      EXPECT_EQ(total, games);
    }
  }
  EXPECT_EQ(data::ChunkPath("out", "samples", 12), "out/samples_12.vzs");
}

TEST(GameSeed, DistinctAcrossIndicesGenerationsAndSeeds) {
  std::set<uint64_t> seeds;
  for (uint64_t seed : {0, 1, 2}) {
    for (uint64_t gen : {0, 1, 2}) {
      for (uint64_t index = 0; index < 1000; ++index) seeds.insert(GameSeed(seed, gen, index));
    }
  }
  EXPECT_EQ(seeds.size(), 9000u);
}

}  // namespace
}  // namespace veletas::selfplay
