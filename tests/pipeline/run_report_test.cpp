// pipeline/run_report.h: the text of `veletas report`.
#include "pipeline/run_report.h"

#include <gtest/gtest.h>

namespace veletas::pipeline {
namespace {

PipelineState TwoGenerations() {
  PipelineState s;
  s.iteration = 2;
  s.stage = PipelineStage::kFinished;
  s.finished_reason = "2 generations";
  s.best_generation = 2;
  s.elapsed_seconds = 187;
  for (int gen : {1, 2}) {
    GenerationSummary g;
    g.generation = gen;
    g.selfplay_games = 10 * gen;
    g.selfplay_samples = 100 * gen;
    g.train_steps = 50;
    g.loss_total = 1.5;
    g.gated_against = gen - 1;
    g.promoted = gen == 2;
    g.gate_games = 8;
    g.gate_wins = gen == 2 ? 6 : 3;
    g.selfplay_seconds = 30;
    g.train_seconds = 10;
    g.gate_seconds = 10;
    s.generations.push_back(g);
  }
  return s;
}

TEST(RunReport, OneLinePerGenerationAndWhyThereAreNoRatings) {
  const util::Result<arena::RunRatings> none =
      util::Error{"no match records in run/matches", util::ErrorKind::kBadInput};
  const std::string text = RunSummaryText("run", TwoGenerations(), none);
  EXPECT_EQ(
      text.rfind("run run: finished (2 generations), best network gen 2, run time 3m07s\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("rejected 3/8 vs 0"), std::string::npos) << text;
  EXPECT_NE(text.find("promoted 6/8 vs 1"), std::string::npos) << text;
  EXPECT_NE(text.find("compute: 80% learning"), std::string::npos) << text;
  EXPECT_NE(text.find("no ratings yet: no match records in run/matches\n"), std::string::npos)
      << text;
}

TEST(RunReport, ARunInProgressNamesItsStage) {
  PipelineState s = TwoGenerations();
  s.stage = PipelineStage::kGate;
  const std::string text = RunSummaryText("r", s, util::Error{"none", util::ErrorKind::kBadInput});
  EXPECT_EQ(text.rfind("run r: in progress (generation 3, gate)", 0), 0u) << text;
}

}  // namespace
}  // namespace veletas::pipeline
