// How the pipeline decides that a trained generation replaces the best network
// (pipeline.promotion): the gate's settings for each mode and the verdict from its evidence.
#pragma once

#include <string>

#include "arena/arena_settings.h"
#include "arena/sprt.h"
#include "config/pipeline_settings.h"

namespace veletas::pipeline {

// The games a candidate plays against the best network: `gate` (arena.gate) for kGate; for
// kLatest an SPRT of H0: elo = -check_elo against H1: elo = 0 capped at check_games games.
// Meaningless for kAlways (no games).
arena::GateSettings PromotionGateSettings(const config::PipelineConfig& pipeline,
                                          const arena::GateSettings& gate);

// Whether the candidate becomes the best network after games with `evidence`: kGate only
// when the gate promoted it; kLatest unless the check accepted H0 (clearly worse), so an
// undecided check promotes; kAlways always.
bool Promoted(config::Promotion promotion, const arena::GateEvidence& evidence);

// The reason a generation summary gives for the verdict: the gate's own reason for kGate;
// for kLatest the check's evidence without the gate's verdict (an undecided check reads "not
// promoted" there, yet keeps the candidate), after "not clearly worse" or "clearly worse".
std::string PromotionReason(config::Promotion promotion, const arena::GateEvidence& evidence);

}  // namespace veletas::pipeline
