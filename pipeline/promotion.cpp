#include "pipeline/promotion.h"

#include <algorithm>

namespace veletas::pipeline {

arena::GateSettings PromotionGateSettings(const PipelineConfig& pipeline,
                                          const arena::GateSettings& gate) {
  if (pipeline.promotion != Promotion::kLatest) return gate;
  arena::GateSettings check;
  check.config.method = arena::GateMethod::kSprt;
  check.config.sprt = arena::SprtConfig{-pipeline.check_elo, 0.0, 0.05, 0.05};
  check.config.max_games = pipeline.check_games;
  check.batch_games = std::min(pipeline.check_games, 10);  // both even
  return check;
}

bool Promoted(Promotion promotion, const arena::GateEvidence& evidence) {
  switch (promotion) {
    case Promotion::kGate:
      return evidence.decision == arena::GateDecision::kPromote;
    case Promotion::kLatest:
      return !(evidence.decision == arena::GateDecision::kReject && evidence.llr <= evidence.lower);
    case Promotion::kAlways:
      return true;
  }
  return false;
}

std::string PromotionReason(Promotion promotion, const arena::GateEvidence& evidence) {
  if (promotion != Promotion::kLatest) return evidence.reason;
  std::string evidence_only = evidence.reason;
  if (const size_t verdict = evidence_only.rfind("; "); verdict != std::string::npos) {
    evidence_only.resize(verdict);  // the gate's "; promoted" / "; not promoted"
  }
  return std::string(Promoted(promotion, evidence) ? "not clearly worse" : "clearly worse") +
         " (check of promotion: latest): " + evidence_only;
}

}  // namespace veletas::pipeline
