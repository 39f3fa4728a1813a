// Promotion modes: the settings of the latest-network check and the verdicts taken from real
// SPRT evidence; the compute shares of a run's generations.
#include <gtest/gtest.h>

#include "pipeline/pipeline_state.h"
#include "pipeline/promotion.h"

namespace veletas::pipeline {
namespace {

config::PipelineConfig Latest() {
  config::PipelineConfig p;
  p.promotion = config::Promotion::kLatest;
  p.check_games = 20;
  p.check_elo = 200;
  return p;
}

TEST(Promotion, LatestChecksWithAShortSprtAgainstAClearDeficit) {
  const arena::GateSettings gate;
  const arena::GateSettings check = PromotionGateSettings(Latest(), gate);
  EXPECT_EQ(check.config.method, arena::GateMethod::kSprt);
  EXPECT_EQ(check.config.sprt.elo0, -200.0);
  EXPECT_EQ(check.config.sprt.elo1, 0.0);
  EXPECT_EQ(check.config.max_games, 20);
  EXPECT_EQ(check.batch_games % 2, 0);
  EXPECT_TRUE(check.Validate().ok());
  // The gated mode keeps arena.gate.
  config::PipelineConfig gated;
  EXPECT_EQ(PromotionGateSettings(gated, gate).config.max_games, gate.config.max_games);
}

TEST(Promotion, LatestStopsOnlyAClearlyWorseCandidate) {
  const arena::GateConfig check = PromotionGateSettings(Latest(), {}).config;
  // Lost every game: the check accepts H0 (clearly worse).
  const arena::GateEvidence crushed = arena::EvaluateGate(check, 0, 20);
  ASSERT_EQ(crushed.decision, arena::GateDecision::kReject);
  EXPECT_FALSE(Promoted(config::Promotion::kLatest, crushed));
  // A little behind at the cap: undecided, which the gate counts as rejected but the check
  // of the latest network lets through.
  const arena::GateEvidence close = arena::EvaluateGate(check, 9, 11);
  EXPECT_GT(close.llr, close.lower);
  EXPECT_FALSE(Promoted(config::Promotion::kGate, close));
  EXPECT_TRUE(Promoted(config::Promotion::kLatest, close));
  EXPECT_TRUE(Promoted(config::Promotion::kAlways, crushed));
}

TEST(Promotion, TheLatestModesReasonDropsTheGatesVerdict) {
  const arena::GateConfig check = PromotionGateSettings(Latest(), {}).config;
  const arena::GateEvidence close = arena::EvaluateGate(check, 9, 11);
  ASSERT_NE(close.reason.find("not promoted"), std::string::npos);
  const std::string kept = PromotionReason(config::Promotion::kLatest, close);
  EXPECT_EQ(kept.rfind("not clearly worse (check of promotion: latest): SPRT", 0), 0u) << kept;
  EXPECT_EQ(kept.find("promoted"), std::string::npos) << kept;
  EXPECT_NE(kept.find("(9-11)"), std::string::npos) << kept;
  const std::string stopped =
      PromotionReason(config::Promotion::kLatest, arena::EvaluateGate(check, 0, 20));
  EXPECT_EQ(stopped.rfind("clearly worse (check of promotion: latest): SPRT", 0), 0u) << stopped;
  EXPECT_EQ(stopped.find("promoted"), std::string::npos) << stopped;
  EXPECT_EQ(PromotionReason(config::Promotion::kGate, close), close.reason);
}

TEST(Promotion, GateModePromotesOnlyWhenTheGateDid) {
  arena::GateConfig gate = arena::GateSettings{}.config;
  gate.sprt = arena::SprtConfig{0.0, 80.0, 0.1, 0.1};
  const arena::GateEvidence strong = arena::EvaluateGate(gate, 40, 4);
  ASSERT_EQ(strong.decision, arena::GateDecision::kPromote);
  EXPECT_TRUE(Promoted(config::Promotion::kGate, strong));
  EXPECT_FALSE(Promoted(config::Promotion::kGate, arena::EvaluateGate(gate, 5, 5)));
}

TEST(ComputeShares, SumsGenerationsAndFormatsEachStage) {
  GenerationSummary a, b;
  a.selfplay_seconds = 60;
  a.train_seconds = 20;
  a.gate_seconds = 10;
  a.ladder_seconds = 10;
  a.selfplay_network_evaluations = 1'200'000;
  a.train_samples = 38'400;
  a.gate_evaluations = 52'100;
  b.selfplay_seconds = 100;
  b.train_seconds = 50;
  b.ladder_evaluations = 201'000;
  ComputeShares c;
  c.Add(a);
  c.Add(b);
  EXPECT_DOUBLE_EQ(c.Seconds(), 250.0);
  EXPECT_DOUBLE_EQ(c.LearningShare(), 230.0 / 250.0);
  EXPECT_EQ(FormatComputeShares(c),
            "self-play 64% (1.20M evals), training 28% (38.4k samples), gate 4% (52.1k evals), "
            "ladder 4% (201.0k evals)");
  EXPECT_DOUBLE_EQ(ComputeShares{}.LearningShare(), 0.0);
}

}  // namespace
}  // namespace veletas::pipeline
