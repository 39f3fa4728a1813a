#include "arena/sprt.h"

#include <optional>

#include <fmt/format.h>
#include <cmath>

#include <nlohmann/json.hpp>

#include "arena/json_util.h"
#include "util/json.h"

namespace veletas::arena {

using nlohmann::json;

SprtState EvaluateSprt(const SprtConfig& c, int wins, int losses) {
  SprtState s;
  s.wins = wins;
  s.losses = losses;
  const double p0 = ExpectedScore(c.elo0);
  const double p1 = ExpectedScore(c.elo1);
  s.llr = wins * std::log(p1 / p0) + losses * std::log((1.0 - p1) / (1.0 - p0));
  s.lower = std::log(c.beta / (1.0 - c.alpha));
  s.upper = std::log((1.0 - c.beta) / c.alpha);
  if (s.llr >= s.upper) {
    s.decision = SprtDecision::kAcceptH1;
  } else if (s.llr <= s.lower) {
    s.decision = SprtDecision::kAcceptH0;
  }
  return s;
}

const char* GateDecisionName(GateDecision d) {
  switch (d) {
    case GateDecision::kContinue:
      return "continue";
    case GateDecision::kPromote:
      return "promote";
    case GateDecision::kReject:
      return "reject";
  }
  return "continue";
}

namespace {

int WinsNeeded(double threshold, int games) {
  // Smallest w with w / games >= threshold; the epsilon absorbs rounding in threshold * games.
  return static_cast<int>(std::ceil(threshold * games - 1e-9));
}

void DecideSprt(const GateConfig& c, GateEvidence& e) {
  const SprtState s = EvaluateSprt(c.sprt, e.wins, e.losses);
  e.sprt = c.sprt;
  e.max_games = c.max_games;
  e.llr = s.llr;
  e.lower = s.lower;
  e.upper = s.upper;
  const std::string record = std::to_string(e.wins) + "-" + std::to_string(e.losses);
  const std::string hyp =
      fmt::format("H0: elo = {:+.1f} vs H1: elo = {:+.1f}", c.sprt.elo0, c.sprt.elo1);
  if (s.decision == SprtDecision::kAcceptH1) {
    e.decision = GateDecision::kPromote;
    e.reason = "SPRT (" + hyp + ") accepted H1: LLR " +
               fmt::format("{:.3f} >= upper bound {:.3f}", s.llr, s.upper) + " after " +
               std::to_string(e.games) + " games (" + record + "); promoted";
  } else if (s.decision == SprtDecision::kAcceptH0) {
    e.decision = GateDecision::kReject;
    e.reason = "SPRT (" + hyp + ") accepted H0: LLR " +
               fmt::format("{:.3f} <= lower bound {:.3f}", s.llr, s.lower) + " after " +
               std::to_string(e.games) + " games (" + record + "); not promoted";
  } else if (c.max_games > 0 && e.games >= c.max_games) {
    e.decision = GateDecision::kReject;
    e.reason = "SPRT (" + hyp + ") undecided at the cap of " + std::to_string(c.max_games) +
               " games: LLR " +
               fmt::format("{:.3f} within ({:.3f}, {:.3f})", s.llr, s.lower, s.upper) + " (" +
               record + "); not promoted";
  } else {
    e.decision = GateDecision::kContinue;
    e.reason = "SPRT (" + hyp + ") undecided: LLR " +
               fmt::format("{:.3f} within ({:.3f}, {:.3f})", s.llr, s.lower, s.upper) + " after " +
               std::to_string(e.games) + " games (" + record + "); continue";
  }
}

void DecideFixed(const GateConfig& c, GateEvidence& e) {
  e.planned_games = c.games;
  e.threshold = c.threshold;
  e.wins_needed = WinsNeeded(c.threshold, c.games);
  const int remaining = std::max(0, c.games - e.games);
  const std::string record = std::to_string(e.wins) + "-" + std::to_string(e.losses);
  const std::string rule =
      fmt::format("threshold {:.3f} of {} games = {} wins", c.threshold, c.games, e.wins_needed);
  if (e.games >= c.games) {
    const bool pass = e.wins >= WinsNeeded(c.threshold, e.games);
    e.decision = pass ? GateDecision::kPromote : GateDecision::kReject;
    e.reason = fmt::format("score {:.3f}", e.elo.score) + " (" + record + ") over " +
               std::to_string(e.games) + " games " + (pass ? ">= " : "< ") +
               fmt::format("threshold {:.3f}", c.threshold) +
               (pass ? "; promoted" : "; not promoted");
  } else if (e.wins >= e.wins_needed) {
    e.decision = GateDecision::kPromote;
    e.reason = record + " after " + std::to_string(e.games) + " games already reaches the " + rule +
               "; promoted without the remaining " + std::to_string(remaining);
  } else if (e.wins + remaining < e.wins_needed) {
    e.decision = GateDecision::kReject;
    e.reason = record + " after " + std::to_string(e.games) + " games can no longer reach the " +
               rule + "; not promoted";
  } else {
    e.decision = GateDecision::kContinue;
    e.reason = record + " after " + std::to_string(e.games) + " games; " +
               std::to_string(e.wins_needed - e.wins) + " more wins needed in " +
               std::to_string(remaining) + " games for the " + rule + "; continue";
  }
}

}  // namespace

GateEvidence EvaluateGate(const GateConfig& c, int wins, int losses) {
  GateEvidence e;
  e.method = c.method;
  e.wins = wins;
  e.losses = losses;
  e.games = wins + losses;
  e.elo = EstimateElo(wins, losses);
  if (c.method == GateMethod::kSprt) {
    DecideSprt(c, e);
  } else {
    DecideFixed(c, e);
  }
  return e;
}

json GateEvidenceToJson(const GateEvidence& e) {
  json j;
  j["method"] = GateMethodName(e.method);
  j["games"] = e.games;
  j["wins"] = e.wins;
  j["losses"] = e.losses;
  AddEloFields(j, e.elo);
  if (e.method == GateMethod::kSprt) {
    j["sprt"] = {{"elo0", e.sprt.elo0},        {"elo1", e.sprt.elo1},
                 {"alpha", e.sprt.alpha},      {"beta", e.sprt.beta},
                 {"max_games", e.max_games},   {"llr", Round(e.llr, 4)},
                 {"lower", Round(e.lower, 4)}, {"upper", Round(e.upper, 4)}};
  } else {
    j["fixed"] = {{"planned_games", e.planned_games},
                  {"threshold", e.threshold},
                  {"wins_needed", e.wins_needed}};
  }
  j["decision"] = GateDecisionName(e.decision);
  j["reason"] = e.reason;
  return j;
}

util::Result<GateEvidence> GateEvidenceFromJson(const json& j) {
  using R = util::Result<GateEvidence>;
  util::JsonFields f(j, "gate");
  GateEvidence e;
  const std::string method = f.String("method");
  const std::optional<GateMethod> named = util::ChoiceValue<GateMethod>(kGateMethodChoices, method);
  if (f.ok() && !named) {
    f.Fail("gate.method: expected \"sprt\" or \"fixed_games\", got \"" + method + "\"");
  }
  e.method = named.value_or(GateMethod::kSprt);
  e.games = static_cast<int>(f.Int("games", 0, 1 << 30));
  e.wins = static_cast<int>(f.Int("wins", 0, 1 << 30));
  e.losses = static_cast<int>(f.Int("losses", 0, 1 << 30));
  if (f.ok() && e.wins + e.losses != e.games) {
    f.Fail("gate: wins + losses (" + std::to_string(e.wins + e.losses) + ") != games (" +
           std::to_string(e.games) + ")");
  }
  if (e.method == GateMethod::kSprt) {
    if (const json* s = f.Object("sprt")) {
      util::JsonFields g(*s, "gate.sprt");
      e.sprt.elo0 = g.Real("elo0", -2000, 2000);
      e.sprt.elo1 = g.Real("elo1", -2000, 2000);
      e.sprt.alpha = g.Real("alpha", 0, 1);
      e.sprt.beta = g.Real("beta", 0, 1);
      e.max_games = static_cast<int>(g.Int("max_games", 0, 1 << 30));
      e.llr = g.Real("llr", -1e12, 1e12);
      e.lower = g.Real("lower", -1e12, 1e12);
      e.upper = g.Real("upper", -1e12, 1e12);
      if (!g.ok()) f.Fail(g.error());
    }
  } else if (const json* s = f.Object("fixed")) {
    util::JsonFields g(*s, "gate.fixed");
    e.planned_games = static_cast<int>(g.Int("planned_games", 1, 1 << 30));
    e.threshold = g.Real("threshold", 0, 1);
    e.wins_needed = static_cast<int>(g.Int("wins_needed", 0, 1 << 30));
    if (!g.ok()) f.Fail(g.error());
  }
  const std::string decision = f.String("decision");
  bool known = false;
  for (GateDecision d : {GateDecision::kContinue, GateDecision::kPromote, GateDecision::kReject}) {
    if (decision == GateDecisionName(d)) {
      e.decision = d;
      known = true;
    }
  }
  if (f.ok() && !known) {
    f.Fail("gate.decision: expected \"continue\", \"promote\" or \"reject\", got \"" + decision +
           "\"");
  }
  e.reason = f.String("reason");
  if (!f.ok()) return R::Error(f.error());
  e.elo = EstimateElo(e.wins, e.losses);
  return e;
}

}  // namespace veletas::arena
