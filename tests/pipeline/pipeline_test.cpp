// The pipeline's stage machine with fake networks, a fake trainer and a fake clock: real
// self-play and arena games (a few, 8 simulations, 7x7), so each run takes about a second.
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "pipeline/pipeline_state.h"
#include "tests/pipeline/pipeline_fakes.h"
#include "tests/support/temp_dir.h"
#include "util/atomic_file.h"

namespace veletas::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::FakeClock;
using testing::FakeSession;
using testing::TestConfig;

struct Session {
  util::Status status = util::Ok();
  std::vector<std::string> lines;
  std::vector<std::string> progress;
  std::vector<TrainJob> trained;
};

// One session (one process) of the pipeline on `run`; stops after `stop_after` stages when
// that is positive.
Session RunSession(const config::Config& c, const std::string& run, FakeClock& clock,
                   const std::map<int64_t, std::string>& styles, int stop_after = 0,
                   bool allow_config_change = false, bool fail_training = false) {
  FakeSession fakes(clock, styles);
  fakes.networks.initial_style = styles.count(0) ? styles.at(0) : "uniform";
  fakes.networks.fail_training = fail_training;
  PipelineOptions options;
  options.run_dir = run;
  options.allow_config_change = allow_config_change;
  int stages = 0;
  if (stop_after > 0) options.stop_after_stage = [&] { return ++stages >= stop_after; };
  Session s;
  s.status = RunPipeline(c, options, fakes.services);
  s.lines = fakes.reporter.lines;
  s.progress = fakes.reporter.progress;
  s.trained = fakes.networks.trained;
  return s;
}

PipelineState State(const std::string& run) {
  auto s = ReadPipelineState(StatePath(run));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  return s.ok() ? s.value() : PipelineState{};
}

bool HasLine(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string Read(const fs::path& path) {
  auto text = util::ReadFile(path.string());
  return text.ok() ? text.value() : "(unreadable " + path.string() + ")";
}

TEST(Pipeline, TrainsTheConfiguredGenerationsOnAGrowingWindowAndFinishes) {
  test_support::TempDir dir;
  FakeClock clock;
  const config::Config c = TestConfig(
      "  generations: 2\n  games_per_generation: 8\n  first_generation_games: 4\n"
      "  promotion: always\n");
  const Session s = RunSession(c, dir.Str(), clock, {});
  ASSERT_TRUE(s.status.ok()) << s.status.error();
  const PipelineState st = State(dir.Str());
  EXPECT_EQ(st.stage, PipelineStage::kFinished);
  EXPECT_EQ(st.finished_reason, "trained 2 generations");
  EXPECT_EQ(st.iteration, 2);
  EXPECT_EQ(st.best_generation, 2);
  ASSERT_EQ(st.generations.size(), 2u);
  EXPECT_EQ(st.generations[0].selfplay_games, 4);
  EXPECT_EQ(st.generations[1].selfplay_games, 8);
  EXPECT_GT(st.generations[1].selfplay_samples, 0);
  // Every position the fake network evaluated is counted (no game was resumed from files).
  EXPECT_GT(st.generations[0].selfplay_network_evaluations, 0);
  EXPECT_GT(st.generations[1].selfplay_network_evaluations, 0);
  EXPECT_EQ(st.generations[0].cpu_seconds, 120);  // only the fake trainer spends time
  EXPECT_EQ(st.elapsed_seconds, 120);
  EXPECT_EQ(st.rated_generations, (std::vector<long long>{1, 2}));
  // Generation N+1 is trained from N on the samples of every iteration so far.
  ASSERT_EQ(s.trained.size(), 2u);
  EXPECT_EQ(s.trained[1].input_checkpoint, GenerationModelPath(dir.Str(), 1));
  EXPECT_EQ(s.trained[1].output_checkpoint, GenerationModelPath(dir.Str(), 2));
  EXPECT_EQ(s.trained[1].data.size(), 2u);
  EXPECT_TRUE(fs::exists(GenerationModelPath(dir.Str(), 2)));
  EXPECT_TRUE(HasLine(s.lines, "gen 2 gate: promotion: always"));
  EXPECT_TRUE(HasLine(s.lines, "finished: trained 2 generations; best network: gen 2"));
  // Progress goes to the reporter (here the fake trainer's one report).
  EXPECT_TRUE(std::any_of(s.progress.begin(), s.progress.end(), [](const std::string& p) {
    return p.rfind("gen 2 | train | step 10/10 | loss 1.500", 0) == 0;
  }));
  // What was reported is the run's log.
  const std::string log = Read(dir.Path() / "logs" / "pipeline.log");
  for (const std::string& line : s.lines) EXPECT_NE(log.find(line + "\n"), std::string::npos);
}

TEST(Pipeline, ACpuBudgetEndsTheRunBeforeAGenerationThatWouldNotFitAndSumsOverRestarts) {
  test_support::TempDir dir;
  FakeClock clock;  // each training takes 2 CPU-minutes
  const std::string pipeline =
      "  generations: 100\n  games_per_generation: 4\n  promotion: always\n"
      "  ladder_every: 0\n  final_ladder: false\n";
  const Session s =
      RunSession(TestConfig(pipeline + "  cpu_budget_minutes: 5\n"), dir.Str(), clock, {});
  ASSERT_TRUE(s.status.ok()) << s.status.error();
  PipelineState st = State(dir.Str());
  EXPECT_EQ(st.iteration, 2);  // 2 + 2 fit in 5 minutes, a third would not
  EXPECT_EQ(st.finished_reason,
            "CPU time budget of 5m00s spent (4m00s used, a generation takes about 2m00s)");
  EXPECT_EQ(st.cpu_seconds, 240);
  // A larger budget continues the finished run, counting the CPU time already used.
  const Session more = RunSession(TestConfig(pipeline + "  cpu_budget_minutes: 9\n"), dir.Str(),
                                  clock, {}, 0, /*allow_config_change=*/true);
  ASSERT_TRUE(more.status.ok()) << more.status.error();
  st = State(dir.Str());
  EXPECT_EQ(st.iteration, 4);
  EXPECT_EQ(more.trained.size(), 2u);
  EXPECT_EQ(st.cpu_seconds, 480);
}

TEST(Pipeline, ATimeBudgetCountsEveryGenerationsWallTime) {
  test_support::TempDir dir;
  FakeClock clock;  // each training takes a minute
  const Session s =
      RunSession(TestConfig("  generations: 100\n  games_per_generation: 4\n  promotion: always\n"
                            "  ladder_every: 0\n  final_ladder: false\n  time_budget_minutes: 3\n"),
                 dir.Str(), clock, {});
  ASSERT_TRUE(s.status.ok()) << s.status.error();
  const PipelineState st = State(dir.Str());
  EXPECT_EQ(st.iteration, 3);
  EXPECT_EQ(st.elapsed_seconds, 180);
  EXPECT_NE(st.finished_reason.find("time budget of 3m00s spent"), std::string::npos)
      << st.finished_reason;
}

TEST(Pipeline, TheGatePromotesAStrongerCandidateAndKeepsTheBestAgainstAWeakerOne) {
  test_support::TempDir dir;
  FakeClock clock;
  const std::map<int64_t, std::string> styles{{0, "weak"}, {1, "strong"}, {2, "weak"}};
  const Session s =
      RunSession(TestConfig("  generations: 3\n  games_per_generation: 4\n  promotion: gate\n"
                            "  ladder_every: 0\n  final_ladder: false\n"),
                 dir.Str(), clock, styles);
  ASSERT_TRUE(s.status.ok()) << s.status.error();
  const PipelineState st = State(dir.Str());
  ASSERT_EQ(st.generations.size(), 3u);
  EXPECT_TRUE(st.generations[0].promoted);
  EXPECT_EQ(st.generations[0].gated_against, 0);
  EXPECT_EQ(st.generations[0].gate_games, 4);
  EXPECT_FALSE(st.generations[1].promoted);
  EXPECT_EQ(st.generations[1].gated_against, 1);
  EXPECT_EQ(st.best_generation, 1);
  EXPECT_TRUE(HasLine(s.lines, "gen 2 gate: rejected against gen 1 after 4 games"));
  // The next self-play is played by the best network, and the third generation is trained
  // from the learner's second (not from the best).
  EXPECT_TRUE(HasLine(s.lines, "gen 3 self-play: 4 games by gen 1"));
  ASSERT_EQ(s.trained.size(), 3u);
  EXPECT_EQ(s.trained[2].input_checkpoint, GenerationModelPath(dir.Str(), 2));
}

TEST(Pipeline, LatestPromotesUnlessTheCheckShowsTheCandidateClearlyWorse) {
  test_support::TempDir dir;
  FakeClock clock;
  const std::map<int64_t, std::string> styles{{0, "weak"}, {1, "strong"}, {2, "weak"}};
  const Session s = RunSession(
      TestConfig("  generations: 2\n  games_per_generation: 4\n  promotion: latest\n"
                 "  check_games: 10\n  check_elo: 200\n  ladder_every: 0\n  final_ladder: false\n"),
      dir.Str(), clock, styles);
  ASSERT_TRUE(s.status.ok()) << s.status.error();
  const PipelineState st = State(dir.Str());
  ASSERT_EQ(st.generations.size(), 2u);
  EXPECT_TRUE(st.generations[0].promoted);
  EXPECT_EQ(
      st.generations[0].gate_reason.rfind("not clearly worse (check of promotion: latest)", 0), 0u)
      << st.generations[0].gate_reason;
  EXPECT_FALSE(st.generations[1].promoted);
  EXPECT_EQ(st.generations[1].gate_reason.rfind("clearly worse (check of promotion: latest)", 0),
            0u)
      << st.generations[1].gate_reason;
  EXPECT_LE(st.generations[1].gate_games, 10);
  EXPECT_EQ(st.best_generation, 1);
}

TEST(Pipeline, ResignationIsCalibratedOnTheTrainedNetworksGamesAndUsedNext) {
  test_support::TempDir dir;
  FakeClock clock;
  const std::map<int64_t, std::string> styles{{0, "strong"}, {1, "strong"}, {2, "strong"}};
  const config::Config c = TestConfig(
      "  generations: 3\n  games_per_generation: 16\n  promotion: always\n"
      "  ladder_every: 0\n  final_ladder: false\n",
      "  resign_threshold: -0.5\n  resign_consecutive: 1\n  no_resign_fraction: 1.0\n"
      "  resign_false_positive_target: 0.2\n");
  // Stop after generation 2's self-play (the first one by a trained network).
  const Session first = RunSession(c, dir.Str(), clock, styles, 5);
  ASSERT_TRUE(first.status.ok()) << first.status.error();
  EXPECT_TRUE(HasLine(first.lines, "resignation: not calibrated on the initial network's games"));
  const PipelineState after = State(dir.Str());
  ASSERT_EQ(after.stage, PipelineStage::kTrain);
  ASSERT_EQ(after.iteration, 1);
  EXPECT_FLOAT_EQ(static_cast<float>(after.generations[1].resign_threshold), -0.5f);
  ASSERT_TRUE(after.resign_calibrated);
  EXPECT_NE(after.resign_threshold, -0.5);
  const Session rest = RunSession(c, dir.Str(), clock, styles);
  ASSERT_TRUE(rest.status.ok()) << rest.status.error();
  const PipelineState st = State(dir.Str());
  ASSERT_EQ(st.generations.size(), 3u);
  // Generation 3's self-play used the threshold calibrated on generation 2's games.
  EXPECT_FLOAT_EQ(static_cast<float>(st.generations[2].resign_threshold),
                  static_cast<float>(after.resign_threshold));
}

// state.json without the ladder's evaluation counts: ladder games against a UCT anchor wait
// for the arena's UCT thread, so how the neural searches' leaves group into batches (and the
// count of evaluations) varies from run to run; the games and their results do not.
std::string StateWithoutLadderEvaluations(const fs::path& run) {
  nlohmann::json j = nlohmann::json::parse(Read(run / "state.json"), nullptr, false);
  if (j.is_discarded()) return "(not JSON)";
  for (nlohmann::json& g : j["generations"]) g.erase("ladder_evaluations");
  return j.dump(1);
}

// The config of the resumption tests: every stage plays (gate, ladder rounds, final ladder).
config::Config ResumeConfig() {
  return TestConfig("  generations: 2\n  games_per_generation: 4\n  promotion: gate\n");
}
const std::map<int64_t, std::string> kResumeStyles{{0, "weak"}, {1, "strong"}, {2, "weak"}};

// The files of a run directory that must not depend on how often it was interrupted: the
// checkpoints and the self-play samples, by path relative to the run (with state.json).
std::map<std::string, std::string> RunOutputs(const fs::path& run) {
  std::map<std::string, std::string> out{{"state.json", StateWithoutLadderEvaluations(run)}};
  for (const auto& e : fs::recursive_directory_iterator(run)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), run).string();
    if (rel.rfind("models/", 0) == 0 || rel.rfind("samples/", 0) == 0) out[rel] = Read(e.path());
  }
  return out;
}

TEST(PipelineResume, AKillAtEveryStageBoundaryEndsWithTheSameRunAsNoKill) {
  test_support::TempDir whole("whole"), pieces("pieces");
  FakeClock clock_whole, clock_pieces;
  const config::Config c = ResumeConfig();
  ASSERT_TRUE(RunSession(c, whole.Str(), clock_whole, kResumeStyles).status.ok());
  // One stage per session: each new session (a new Pipeline) starts from state.json alone.
  std::vector<std::string> resumed_at;
  int sessions = 0;
  for (; sessions < 20; ++sessions) {
    const Session s = RunSession(c, pieces.Str(), clock_pieces, kResumeStyles, 1);
    ASSERT_TRUE(s.status.ok()) << s.status.error();
    for (const std::string& l : s.lines) {
      if (l.rfind("resuming ", 0) == 0) resumed_at.push_back(l.substr(l.find(", stage ") + 8));
    }
    if (State(pieces.Str()).stage == PipelineStage::kFinished) break;
  }
  EXPECT_EQ(sessions, 8);  // 2 generations of 4 stages, then the finish
  std::vector<std::string> stages;
  for (const std::string& r : resumed_at) stages.push_back(r.substr(0, r.find(',')));
  EXPECT_EQ(stages, (std::vector<std::string>{"train", "gate", "ladder", "selfplay", "train",
                                              "gate", "ladder", "selfplay"}));
  const auto a = RunOutputs(whole.Path());
  const auto b = RunOutputs(pieces.Path());
  EXPECT_EQ(a.size(), b.size());
  for (const auto& [path, bytes] : a) {
    auto it = b.find(path);
    ASSERT_NE(it, b.end()) << path << " missing after the interrupted run";
    EXPECT_EQ(it->second, bytes) << path << " differs";
  }
  EXPECT_EQ(State(pieces.Str()).best_generation, 1);
}

// Killed after `stop` stages, then resumed in one more session.
class PipelineResumeAt : public ::testing::TestWithParam<int> {};

TEST_P(PipelineResumeAt, TheSecondSessionContinuesToTheSameState) {
  test_support::TempDir whole("whole"), killed("killed");
  FakeClock clock_whole, clock_killed;
  const config::Config c = ResumeConfig();
  ASSERT_TRUE(RunSession(c, whole.Str(), clock_whole, kResumeStyles).status.ok());
  ASSERT_TRUE(RunSession(c, killed.Str(), clock_killed, kResumeStyles, GetParam()).status.ok());
  EXPECT_NE(State(killed.Str()).stage, PipelineStage::kFinished);
  const Session rest = RunSession(c, killed.Str(), clock_killed, kResumeStyles);
  ASSERT_TRUE(rest.status.ok()) << rest.status.error();
  EXPECT_TRUE(HasLine(rest.lines, "resuming "));
  EXPECT_EQ(StateWithoutLadderEvaluations(killed.Path()),
            StateWithoutLadderEvaluations(whole.Path()));
}

INSTANTIATE_TEST_SUITE_P(EveryBoundary, PipelineResumeAt, ::testing::Range(1, 9));

TEST(PipelineResume, AFailedStageIsRunAgainByTheNextSession) {
  test_support::TempDir dir;
  FakeClock clock;
  const config::Config c =
      TestConfig("  generations: 1\n  games_per_generation: 4\n  promotion: always\n");
  const Session failed = RunSession(c, dir.Str(), clock, {}, 0, false, /*fail_training=*/true);
  ASSERT_FALSE(failed.status.ok());
  EXPECT_EQ(failed.status.kind(), util::ErrorKind::kFailure);
  EXPECT_EQ(failed.status.error(), "fake disk full");
  EXPECT_EQ(State(dir.Str()).stage, PipelineStage::kTrain);
  EXPECT_NE(Read(dir.Path() / "logs" / "pipeline.log").find("error: fake disk full\n"),
            std::string::npos);
  const Session again = RunSession(c, dir.Str(), clock, {});
  ASSERT_TRUE(again.status.ok()) << again.status.error();
  EXPECT_EQ(again.trained.size(), 1u);
  EXPECT_EQ(State(dir.Str()).stage, PipelineStage::kFinished);
}

TEST(PipelineResume, AnotherConfigIsRefusedUnlessAllowed) {
  test_support::TempDir dir;
  FakeClock clock;
  const std::string base = "  games_per_generation: 4\n  promotion: always\n";
  ASSERT_TRUE(
      RunSession(TestConfig("  generations: 1\n" + base), dir.Str(), clock, {}).status.ok());
  const config::Config more = TestConfig("  generations: 2\n" + base);
  const Session refused = RunSession(more, dir.Str(), clock, {});
  ASSERT_FALSE(refused.status.ok());
  EXPECT_EQ(refused.status.kind(), util::ErrorKind::kBadInput);
  EXPECT_NE(refused.status.error().find("differs from the config this run was started with"),
            std::string::npos)
      << refused.status.error();
  EXPECT_EQ(State(dir.Str()).iteration, 1);
  const Session allowed = RunSession(more, dir.Str(), clock, {}, 0, true);
  ASSERT_TRUE(allowed.status.ok()) << allowed.status.error();
  EXPECT_EQ(State(dir.Str()).iteration, 2);
}

TEST(PipelineResume, ACorruptStateFileIsBadInputNamingTheFile) {
  test_support::TempDir dir;
  FakeClock clock;
  const config::Config c =
      TestConfig("  generations: 1\n  games_per_generation: 4\n  promotion: always\n");
  ASSERT_TRUE(util::WriteFileAtomic(StatePath(dir.Str()), "{\"format\": 3").ok());
  const Session s = RunSession(c, dir.Str(), clock, {});
  ASSERT_FALSE(s.status.ok());
  EXPECT_EQ(s.status.kind(), util::ErrorKind::kBadInput);
  EXPECT_NE(s.status.error().find(StatePath(dir.Str())), std::string::npos) << s.status.error();
}

}  // namespace
}  // namespace veletas::pipeline
