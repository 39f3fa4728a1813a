// Promotion gates for the arena: Wald's sequential probability ratio test (SPRT) and a
// fixed-games score threshold, both for win/loss matches (no draws) under the logistic Elo
// model (arena/elo.h). A gate decision comes with its evidence (GateEvidence), which
// serialises to JSON so that every promotion or rejection can be explained afterwards.
// All functions are pure and thread-safe.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>

#include "arena/elo.h"
#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::arena {

// SPRT of H0: elo = elo0 against H1: elo = elo1 (elo = candidate minus incumbent), with
// type I error alpha (accepting H1 when H0 holds) and type II error beta.
struct SprtConfig {
  double elo0 = 0.0;
  double elo1 = 35.0;
  double alpha = 0.05;
  double beta = 0.05;

  // The settings elo0, elo1, alpha, beta, one row each (arena_settings.cpp).
  static std::span<const util::Field<SprtConfig>> Fields();
  // Ok when usable, else the setting that is not (bad input, "elo1: ..."): elo0 < elo1,
  // both within [-2000, 2000]; alpha and beta in (0, 0.5].
  util::Status Validate() const;
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

// The state of an SPRT after `wins` and `losses` of the candidate. With
// p_i = ExpectedScore(elo_i):
//   llr   = wins ln(p1 / p0) + losses ln((1 - p1) / (1 - p0))
//   lower = ln(beta / (1 - alpha)),   upper = ln((1 - beta) / alpha)
// and the decision is accept H1 when llr >= upper, accept H0 when llr <= lower, else
// continue.
struct SprtState {
  int wins = 0;
  int losses = 0;
  double llr = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  SprtDecision decision = SprtDecision::kContinue;
};

// Preconditions: config.Validate() is ok, wins >= 0, losses >= 0.
SprtState EvaluateSprt(const SprtConfig& config, int wins, int losses);

enum class GateMethod { kSprt, kFixedGames };
// The names of the methods (config files, gate evidence): "sprt", "fixed_games".
inline constexpr util::Choice<GateMethod> kGateMethodChoices[] = {
    {GateMethod::kSprt, "sprt"}, {GateMethod::kFixedGames, "fixed_games"}};
// "sprt", "fixed_games".
const char* GateMethodName(GateMethod m);

struct GateConfig {
  GateMethod method = GateMethod::kSprt;
  // SPRT gate: the test above, stopped after max_games games without a decision (0 = no
  // cap); a truncated test does not promote.
  SprtConfig sprt;
  int max_games = 0;
  // Fixed-games gate: `games` games, promote when wins / games >= threshold. The decision
  // is taken as soon as the remaining games cannot change it (the candidate already has
  // the wins it needs, or can no longer reach them).
  int games = 400;
  double threshold = 0.55;

  // The settings method, the SPRT's, max_games, games, threshold, one row each
  // (arena_settings.cpp).
  static std::span<const util::Field<GateConfig>> Fields();
  // Ok when usable, else the setting that is not: the SPRT settings (keys elo0, elo1, alpha,
  // beta), max_games in [0, 10^7], games in [1, 10^7], threshold in (0, 1].
  util::Status Validate() const;
};

enum class GateDecision { kContinue, kPromote, kReject };
// "continue", "promote", "reject".
const char* GateDecisionName(GateDecision d);

// Everything a gate decision rests on. Fields of the other method keep their defaults.
struct GateEvidence {
  GateMethod method = GateMethod::kSprt;
  int games = 0;  // played so far
  int wins = 0;   // of the candidate
  int losses = 0;
  EloEstimate elo;  // candidate minus incumbent, from these games
  // SPRT
  SprtConfig sprt;
  int max_games = 0;
  double llr = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  // Fixed games
  int planned_games = 0;
  double threshold = 0.0;
  int wins_needed = 0;  // ceil(threshold * planned_games)
  GateDecision decision = GateDecision::kContinue;
  std::string reason;  // one sentence with the numbers behind the decision
};

// The gate's verdict after the candidate's `wins` and `losses` against the incumbent.
// Preconditions: config.Validate() is ok, wins >= 0, losses >= 0.
GateEvidence EvaluateGate(const GateConfig& config, int wins, int losses);

// JSON form (documented in docs/RATINGS.md); the reader checks every field and its type.
nlohmann::json GateEvidenceToJson(const GateEvidence& evidence);
util::Result<GateEvidence> GateEvidenceFromJson(const nlohmann::json& j);

}  // namespace veletas::arena
