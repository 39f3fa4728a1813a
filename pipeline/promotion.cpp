#include "pipeline/promotion.h"

#include <algorithm>

namespace veletas::pipeline {

arena::GateSettings PromotionGateSettings(const config::PipelineConfig& pipeline,
                                          const arena::GateSettings& gate) {
  if (pipeline.promotion != config::Promotion::kLatest) return gate;
  arena::GateSettings check;
  check.config.method = arena::GateMethod::kSprt;
  check.config.sprt = arena::SprtConfig{-pipeline.check_elo, 0.0, 0.05, 0.05};
  check.config.max_games = pipeline.check_games;
  check.batch_games = std::min(pipeline.check_games, 10);  // both even
  return check;
}

bool Promoted(config::Promotion promotion, const arena::GateEvidence& evidence) {
  switch (promotion) {
    case config::Promotion::kGate:
      return evidence.decision == arena::GateDecision::kPromote;
    case config::Promotion::kLatest:
      return !(evidence.decision == arena::GateDecision::kReject && evidence.llr <= evidence.lower);
    case config::Promotion::kAlways:
      return true;
  }
  return false;
}

std::string PromotionReason(config::Promotion promotion, const arena::GateEvidence& evidence) {
  if (promotion != config::Promotion::kLatest) return evidence.reason;
  std::string evidence_only = evidence.reason;
  if (const size_t verdict = evidence_only.rfind("; "); verdict != std::string::npos) {
    evidence_only.resize(verdict);  // the gate's "; promoted" / "; not promoted"
  }
  return std::string(Promoted(promotion, evidence) ? "not clearly worse" : "clearly worse") +
         " (check of promotion: latest): " + evidence_only;
}

}  // namespace veletas::pipeline
