// The replay window: its size formula, the order and bookkeeping of file ingestion, the
// window's contents, the reuse limit on steps and the learning-rate schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "data/excluded_games.h"
#include "tests/support/files.h"
#include "tests/training/test_util.h"
#include "training/call_plan.h"
#include "training/lr_schedule.h"
#include "training/replay_window.h"

namespace veletas::training {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteGames;

TrainingConfig WindowConfig(int64_t min, int64_t max, double exponent, double growth) {
  TrainingConfig c;
  c.window_min = min;
  c.window_max = max;
  c.window_exponent = exponent;
  c.window_growth = growth;
  return c;
}

TEST(WindowSize, FollowsThePowerLaw) {
  // min 1000, exponent 1/2, growth 1: W(N) = 1000 * (1 + 2 * (sqrt(N / 1000) - 1)).
  const TrainingConfig c = WindowConfig(1000, 1'000'000, 0.5, 1.0);
  EXPECT_EQ(WindowSize(c, 0), 0);
  EXPECT_EQ(WindowSize(c, 10), 10);      // everything while N <= window_min
  EXPECT_EQ(WindowSize(c, 1000), 1000);  // continuous at window_min
  EXPECT_EQ(WindowSize(c, 4000), 3000);  // sqrt(4) = 2: 1000 * (1 + 2 * 1)
  EXPECT_EQ(WindowSize(c, 9000), 5000);  // sqrt(9) = 3: 1000 * (1 + 2 * 2)
  EXPECT_EQ(WindowSize(c, 100'000), 19'000);
  // KataGo's parameters (exponent 0.75, growth 0.4) at 16x window_min: 16^0.75 = 8.
  const TrainingConfig k = WindowConfig(250'000, 10'000'000, 0.75, 0.4);
  EXPECT_NEAR(static_cast<double>(WindowSize(k, 4'000'000)), 250'000 * (1 + 0.4 * 7 / 0.75), 1.0);
}

TEST(WindowSize, IsMonotoneSublinearAndCapped) {
  const TrainingConfig c = WindowConfig(5000, 60'000, 0.75, 0.4);
  int64_t previous = 0;
  double previous_fraction = 2.0;
  for (int64_t n = 1; n < 10'000'000; n = n * 3 / 2 + 1) {
    const int64_t w = WindowSize(c, n);
    EXPECT_GE(w, previous) << n;
    EXPECT_LE(w, n);
    EXPECT_LE(w, c.window_max);
    const double fraction = static_cast<double>(w) / static_cast<double>(n);
    EXPECT_LE(fraction, previous_fraction + 1e-12) << n;  // W(N) / N never grows
    previous = w;
    previous_fraction = fraction;
  }
  EXPECT_EQ(WindowSize(c, 9'000'000), c.window_max);
}

TEST(NaturalLess, OrdersNumbersByValue) {
  EXPECT_TRUE(NaturalLess("samples_9.vzs", "samples_10.vzs"));
  EXPECT_FALSE(NaturalLess("samples_10.vzs", "samples_9.vzs"));
  EXPECT_TRUE(NaturalLess("gen_2/samples_10.vzs", "gen_10/samples_0.vzs"));
  EXPECT_TRUE(NaturalLess("a", "b"));
  EXPECT_TRUE(NaturalLess("a", "a1"));
  EXPECT_FALSE(NaturalLess("a1", "a1"));
  EXPECT_TRUE(NaturalLess("x7", "x07"));  // equal values: the shorter spelling first
}

TEST(ListSampleFiles, NaturalOrderRecursiveAndArgumentsInOrder) {
  TempDir dir;
  for (const char* name :
       {"b/gen_10/samples_0.vzs", "b/gen_2/samples_10.vzs", "b/gen_2/samples_9.vzs", "b/notes.txt",
        "b/gen_2/samples_11.vzs.tmp.1", "a/samples_1.vzs", "single.vzs"}) {
    fs::create_directories(fs::path(dir.File(name)).parent_path());
    std::ofstream(dir.File(name)) << "x";
  }
  auto listed = ListSampleFiles({dir.File("b"), dir.File("a"), dir.File("single.vzs")});
  ASSERT_TRUE(listed.ok()) << listed.error();
  const std::string root = fs::canonical(dir.Path()).string();
  const std::vector<std::string> expected = {
      root + "/b/gen_2/samples_9.vzs", root + "/b/gen_2/samples_10.vzs",
      root + "/b/gen_10/samples_0.vzs", root + "/a/samples_1.vzs", root + "/single.vzs"};
  EXPECT_EQ(listed.value(), expected);
  // The same file named twice (here through its directory and directly) counts once.
  auto twice = ListSampleFiles({dir.File("a"), dir.File("a/../a/samples_1.vzs")});
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice.value().size(), 1u);
}

TEST(ListSampleFiles, MissingPathsAndNoPathsAreErrors) {
  TempDir dir;
  auto missing = ListSampleFiles({dir.File("nowhere")});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find(dir.File("nowhere")), std::string::npos) << missing.error();
  EXPECT_NE(missing.error().find("does not exist"), std::string::npos) << missing.error();
  EXPECT_FALSE(ListSampleFiles({}).ok());
}

TEST(IngestFiles, NoFileIsLostOrCountedTwiceAcrossCallsAndRestarts) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  const int64_t a = WriteGames(dir.File("data/s_1.vzs"), 1, 11);
  const int64_t b = WriteGames(dir.File("data/s_2.vzs"), 1, 12);
  DataState state;
  auto listed = ListSampleFiles({dir.File("data")});
  ASSERT_TRUE(listed.ok());
  auto first = IngestFiles(state, listed.value(), rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first.value().new_files, 2);
  EXPECT_EQ(first.value().new_samples, a + b);
  EXPECT_EQ(state.total_samples, a + b);

  // A restart: the state goes through its JSON form (as in a checkpoint).
  auto restored = DataStateFromJson(DataStateToJson(state), "ckpt");
  ASSERT_TRUE(restored.ok()) << restored.error();
  EXPECT_EQ(restored.value(), state);
  state = restored.value();

  // New files appear, one of them sorting before the known ones; the old ones are not
  // counted again, the new ones are appended in listing order.
  const int64_t c = WriteGames(dir.File("data/s_0.vzs"), 1, 13);
  const int64_t d = WriteGames(dir.File("data/s_10.vzs"), 1, 14);
  listed = ListSampleFiles({dir.File("data")});
  auto second = IngestFiles(state, listed.value(), rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second.value().new_files, 2);
  EXPECT_EQ(second.value().new_samples, c + d);
  ASSERT_EQ(state.files.size(), 4u);
  EXPECT_NE(state.files[2].path.find("s_0.vzs"), std::string::npos);
  EXPECT_NE(state.files[3].path.find("s_10.vzs"), std::string::npos);
  EXPECT_EQ(state.total_samples, a + b + c + d);
  auto third = IngestFiles(state, listed.value(), rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third.value().new_files, 0);
  EXPECT_EQ(state.total_samples, a + b + c + d);
}

TEST(IngestFiles, CorruptFilesAreSkippedByNameAndRetriedLater) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  const int64_t good = WriteGames(dir.File("data/s_1.vzs"), 1, 21);
  WriteGames(dir.File("data/s_2.vzs"), 1, 22);
  const std::string bytes = testing::ReadAll(dir.File("data/s_2.vzs"));
  std::ofstream(dir.File("data/s_2.vzs"), std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  DataState state;
  auto listed = ListSampleFiles({dir.File("data")});
  auto report = IngestFiles(state, listed.value(), rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report.value().new_files, 1);
  EXPECT_EQ(state.total_samples, good);
  ASSERT_EQ(report.value().skipped.size(), 1u);
  EXPECT_NE(report.value().skipped[0].find("s_2.vzs"), std::string::npos);
  EXPECT_NE(report.value().skipped[0].find("truncated"), std::string::npos);
  // Replaced by a whole file (as self-play does on resume), it is ingested next time.
  const int64_t replaced = WriteGames(dir.File("data/s_2.vzs"), 1, 23);
  auto again = IngestFiles(state, listed.value(), rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().new_files, 1);
  EXPECT_TRUE(again.value().skipped.empty());
  EXPECT_EQ(state.total_samples, good + replaced);
}

TEST(IngestFiles, KeepsOnlyTheNewestFilesInMemory) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  int64_t counts[3];
  for (int k = 0; k < 3; ++k) {
    counts[k] = WriteGames(dir.File("data/s_" + std::to_string(k) + ".vzs"), 1, 70 + k);
  }
  auto listed = ListSampleFiles({dir.File("data")});
  ASSERT_TRUE(listed.ok());
  // Enough to need the last file and part of the middle one: those two are kept.
  DataState state;
  auto two = IngestFiles(state, listed.value(), rules::RuleSet::kStandard, 7, counts[2] + 1);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two.value().loaded.size(), 2u);
  EXPECT_EQ(two.value().loaded.count(listed.value()[0]), 0u);
  EXPECT_EQ(state.total_samples, counts[0] + counts[1] + counts[2]);  // all still counted
  DataState other;
  auto one = IngestFiles(other, listed.value(), rules::RuleSet::kStandard, 7, 1);
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one.value().loaded.size(), 1u);
  EXPECT_EQ(one.value().loaded.count(listed.value()[2]), 1u);
  DataState all;
  auto three = IngestFiles(all, listed.value(), rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three.value().loaded.size(), 3u);
}

TEST(IngestFiles, AnotherBoardSizeIsAnError) {
  TempDir dir;
  WriteGames(dir.File("nine.vzs"), 1, 5, 9);
  DataState state;
  auto report = IngestFiles(state, {dir.File("nine.vzs")}, rules::RuleSet::kStandard, 7);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().find("nine.vzs"), std::string::npos) << report.error();
  EXPECT_NE(report.error().find("9x9"), std::string::npos) << report.error();
  EXPECT_TRUE(state.files.empty());
}

TEST(ReplayWindow, HoldsTheNewestSamples) {
  TempDir dir;
  std::vector<data::Sample> all;
  DataState state;
  for (int k = 0; k < 3; ++k) {
    const std::string path = dir.File("s_" + std::to_string(k) + ".vzs");
    const data::SampleFile f = RandomGameSamples(rules::RuleSet::kStandard, 7, 1, 30 + k, 0.5);
    ASSERT_EQ(test_support::ErrorText(data::WriteSampleFile(path, f)), "");
    all.insert(all.end(), f.samples.begin(), f.samples.end());
    state.files.push_back({path, static_cast<int64_t>(f.samples.size())});
    state.total_samples += static_cast<int64_t>(f.samples.size());
  }
  const int64_t last = state.files.back().samples;
  // A window reaching into the middle file: its newest samples and all of the last file.
  const int64_t window = last + 5;
  std::vector<std::string> skipped;
  auto w = ReplayWindow::Load(state, window, rules::RuleSet::kStandard, 7, {}, skipped);
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_TRUE(skipped.empty());
  ASSERT_EQ(w.value().Size(), window);
  EXPECT_EQ(w.value().Files(), 2);
  for (int64_t i = 0; i < window; ++i) {
    const data::Sample& expected = all[all.size() - window + i];
    EXPECT_TRUE(w.value().At(i).position == expected.position) << i;
    EXPECT_EQ(w.value().At(i).outcome, expected.outcome) << i;
  }
  // A deleted file is reported and left out.
  fs::remove(state.files.back().path);
  auto partial = ReplayWindow::Load(state, window, rules::RuleSet::kStandard, 7, {}, skipped);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial.value().Size(), 5);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("s_2.vzs"), std::string::npos) << skipped[0];
}

TEST(ReplayWindow, CanLeaveTheUnclaimedShootersOfResignedGamesOutOfTheAuxLoss) {
  TempDir dir;
  const std::string path = dir.File("s.vzs");
  data::SampleFile f = RandomGameSamples(rules::RuleSet::kStandard, 7, 2, 5, 1.0);
  ASSERT_EQ(f.games.size(), 2u);
  f.games[0].resigned = true;
  // Every sample with a shooter has one labelled "nobody" and one claimed.
  int with_aux = 0;
  for (data::Sample& s : f.samples) {
    if (s.aux.size() < 2) continue;
    s.aux[0].owner = data::Owner::kNobody;
    s.aux[1].owner = data::Owner::kToMove;
    ++with_aux;
  }
  ASSERT_GT(with_aux, 0);
  ASSERT_EQ(test_support::ErrorText(data::WriteSampleFile(path, f)), "");
  DataState state;
  state.files.push_back({path, static_cast<int64_t>(f.samples.size())});
  state.total_samples = static_cast<int64_t>(f.samples.size());
  std::vector<std::string> skipped;
  auto count = [](const data::Sample& s, data::Owner o) {
    return std::count_if(s.aux.begin(), s.aux.end(),
                         [o](const data::AuxTarget& t) { return t.owner == o; });
  };
  for (bool ignore : {false, true}) {
    auto w = ReplayWindow::Load(state, state.total_samples, rules::RuleSet::kStandard, 7, {},
                                skipped, ignore);
    ASSERT_TRUE(w.ok()) << w.error();
    ASSERT_EQ(w.value().Size(), state.total_samples);
    for (int64_t i = 0; i < w.value().Size(); ++i) {
      const data::Sample& got = w.value().At(i);
      const data::Sample& sent = f.samples[i];
      const bool resigned = i < static_cast<int64_t>(f.games[0].samples);
      EXPECT_EQ(count(got, data::Owner::kNobody),
                ignore && resigned ? 0 : count(sent, data::Owner::kNobody))
          << i;
      EXPECT_EQ(count(got, data::Owner::kToMove), count(sent, data::Owner::kToMove)) << i;
      EXPECT_EQ(count(got, data::Owner::kOpponent), count(sent, data::Owner::kOpponent)) << i;
      EXPECT_EQ(got.outcome, sent.outcome) << i;
    }
  }
  EXPECT_TRUE(skipped.empty());
}

TEST(ReplayWindow, LeavesOutTheGamesItsDirectoryExcludes) {
  TempDir dir;
  const std::string path = dir.File("s.vzs");
  data::SampleFile f = RandomGameSamples(rules::RuleSet::kStandard, 7, 3, 5, 1.0);
  ASSERT_EQ(f.games.size(), 3u);
  for (size_t g = 0; g < f.games.size(); ++g) f.games[g].id.bytes[0] = static_cast<uint8_t>(g + 1);
  ASSERT_EQ(test_support::ErrorText(data::WriteSampleFile(path, f)), "");
  DataState state;
  state.files.push_back({path, static_cast<int64_t>(f.samples.size())});
  state.total_samples = static_cast<int64_t>(f.samples.size());
  // The middle game excluded (twice: listed once).
  ASSERT_EQ(test_support::ErrorText(data::AddExcludedGames(dir.Str(), {f.games[1].id})), "");
  ASSERT_EQ(test_support::ErrorText(data::AddExcludedGames(dir.Str(), {f.games[1].id})), "");
  std::vector<std::string> skipped;
  auto w =
      ReplayWindow::Load(state, state.total_samples, rules::RuleSet::kStandard, 7, {}, skipped);
  ASSERT_TRUE(w.ok()) << w.error();
  const int64_t first = f.games[0].samples, middle = f.games[1].samples;
  ASSERT_GT(middle, 0);
  EXPECT_EQ(w.value().ExcludedSamples(), middle);
  ASSERT_EQ(w.value().Size(), state.total_samples - middle);
  for (int64_t i = 0; i < w.value().Size(); ++i) {
    const data::Sample& sent = f.samples[i < first ? i : i + middle];
    EXPECT_EQ(w.value().At(i).position.Hash(), sent.position.Hash()) << i;
  }
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  // A list that is not one is bad input naming the file and line.
  ASSERT_EQ(test_support::ErrorText(util::WriteFileAtomic(data::ExcludedGamesPath(dir.Str()),
                                                          f.games[0].id.Hex() + "\nnot an id\n")),
            "");
  auto bad =
      ReplayWindow::Load(state, state.total_samples, rules::RuleSet::kStandard, 7, {}, skipped);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("excluded_games.txt:2: expected a game id"), std::string::npos)
      << bad.error();
}

TEST(PlanSteps, AverageReuseCarriesTheRemainderAndHonoursTheCap) {
  TrainingConfig c;
  c.batch_size = 64;
  c.max_sample_reuse = 4;
  c.max_steps_per_generation = 100;
  DataState s;
  // 1000 new samples may be used 4000 times: 62 batches of 64 (3968), 32 uses left over.
  EXPECT_EQ(PlanSteps(c, 1000, -1, s), 62);
  EXPECT_DOUBLE_EQ(s.reuse_credit, 32);
  // 8 more samples: 32 + 32 = 64 uses, exactly one batch.
  EXPECT_EQ(PlanSteps(c, 8, -1, s), 1);
  EXPECT_DOUBLE_EQ(s.reuse_credit, 0);
  EXPECT_EQ(PlanSteps(c, 0, -1, s), 0);
  // The cap: 10000 samples would allow 625 steps; the excess is dropped.
  EXPECT_EQ(PlanSteps(c, 10'000, -1, s), 100);
  EXPECT_DOUBLE_EQ(s.reuse_credit, 0);
  // An explicit number of steps.
  EXPECT_EQ(PlanSteps(c, 10, 7, s), 7);
}

TEST(LearningRate, WarmUpAndSchedules) {
  TrainingConfig c;
  c.learning_rate = 0.1;
  c.warmup_steps = 10;
  EXPECT_DOUBLE_EQ(LearningRate(c, 0), 0.01);
  EXPECT_DOUBLE_EQ(LearningRate(c, 4), 0.05);
  EXPECT_DOUBLE_EQ(LearningRate(c, 9), 0.1);
  EXPECT_DOUBLE_EQ(LearningRate(c, 1000), 0.1);
  c.warmup_steps = 0;
  c.lr_schedule = LrSchedule::kStep;
  c.lr_step_boundaries = {100, 200};
  c.lr_step_gamma = 0.5;
  EXPECT_DOUBLE_EQ(LearningRate(c, 99), 0.1);
  EXPECT_DOUBLE_EQ(LearningRate(c, 100), 0.05);
  EXPECT_DOUBLE_EQ(LearningRate(c, 250), 0.025);
  c.lr_schedule = LrSchedule::kCosine;
  c.warmup_steps = 10;
  c.lr_cosine_steps = 100;
  c.lr_min = 0.02;
  EXPECT_DOUBLE_EQ(LearningRate(c, 10), 0.1);     // start of the cosine
  EXPECT_NEAR(LearningRate(c, 60), 0.06, 1e-12);  // half way: the mean
  EXPECT_DOUBLE_EQ(LearningRate(c, 110), 0.02);   // the end: lr_min
  EXPECT_DOUBLE_EQ(LearningRate(c, 5000), 0.02);
  EXPECT_NEAR(LearningRate(c, 4), 0.1 * 5 / 10, 1e-12);  // warm-up applies on top
}

}  // namespace
}  // namespace veletas::training
