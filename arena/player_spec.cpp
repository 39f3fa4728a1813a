#include "arena/player_spec.h"

#include <charconv>
#include <filesystem>

namespace veletas::arena {
namespace {

// A decimal integer in [lo, hi] made of digits only (no sign, no spaces).
bool ParseBudget(std::string_view text, int lo, int hi, int& out) {
  if (text.empty() || text.size() > 10) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

// The shortest decimal form of `v` that reads back as the same double ("0.7", not
// "0.69999999999999996").
std::string ShortReal(double v) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : std::to_string(v);
}

bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A precision word of an mcts spec: a lowercase letter, then lowercase letters and digits.
bool IsPrecisionWord(std::string_view text) {
  if (text.empty() || text.size() > 16 || text[0] < 'a' || text[0] > 'z') return false;
  for (char c : text) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// A time budget field "Tms" (any text ending in "ms", so that "0ms" and "-5ms" get the
// range error rather than "unknown player").
bool IsTimeField(std::string_view text) { return text.size() > 2 && text.ends_with("ms"); }

// Reads the budget field `field` of the spec `quoted` into spec.time_ms (a field "Tms") or
// spec.budget (digits in [1, max_budget]); `budget_what` names N in the error.
util::Status ReadBudgetField(std::string_view field, const std::string& quoted, int max_budget,
                             const std::string& budget_what, PlayerSpec& spec) {
  if (IsTimeField(field)) {
    if (!ParseBudget(field.substr(0, field.size() - 2), 1, kMaxTurnMs, spec.time_ms)) {
      return util::Status::Error("player " + quoted +
                                 ": the time per turn T in Tms must be in [1, " +
                                 std::to_string(kMaxTurnMs) + "] ms");
    }
    return util::Ok();
  }
  if (!ParseBudget(field, 1, max_budget, spec.budget)) {
    return util::Status::Error("player " + quoted + ": N (" + budget_what + ") must be in [1, " +
                               std::to_string(max_budget) + "]");
  }
  return util::Ok();
}

// The budget part of a spec's text: "1000" or "100ms".
std::string BudgetText(const PlayerSpec& spec) {
  return spec.Timed() ? std::to_string(spec.time_ms) + "ms" : std::to_string(spec.budget);
}

}  // namespace

std::string PlayerSpec::ToString() const {
  switch (kind) {
    case PlayerKind::kRandom:
      return "random";
    case PlayerKind::kUct:
      return "uct:" + BudgetText(*this) + (c_uct > 0 ? ":" + ShortReal(c_uct) : "");
    case PlayerKind::kMcts:
      return "mcts:" + checkpoint + ":" + BudgetText(*this) +
             (precision.empty() ? "" : ":" + precision);
  }
  return "";
}

util::Result<PlayerSpec> ParsePlayerSpec(std::string_view text) {
  using R = util::Result<PlayerSpec>;
  const std::string quoted = "\"" + std::string(text) + "\"";
  const std::string unknown =
      "unknown player " + quoted + ": expected random, uct:N, uct:N:C or mcts:CKPT:N[:P]";
  PlayerSpec spec;
  if (text == "random") return spec;
  if (text.starts_with("uct:")) {
    std::string_view n = text.substr(4);
    if (const size_t colon = n.find(':'); colon != std::string_view::npos) {
      const std::string_view c = n.substr(colon + 1);
      n = n.substr(0, colon);
      double v = 0;
      const auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), v);
      if (c.empty() || ec != std::errc() || ptr != c.data() + c.size() || !(v > 0 && v <= 100)) {
        return R::Error("player " + quoted +
                        ": C (the exploration constant) must be a number in (0, 100]");
      }
      spec.c_uct = v;
    }
    if (!AllDigits(n) && !IsTimeField(n)) return R::Error(unknown);
    spec.kind = PlayerKind::kUct;
    if (util::Status s = ReadBudgetField(n, quoted, kMaxUctPlayouts, "playouts per turn", spec);
        !s.ok()) {
      return s.error_value();
    }
    return spec;
  }
  if (text.starts_with("mcts:")) {
    std::string_view rest = text.substr(5);
    if (const size_t last = rest.rfind(':');
        last != std::string_view::npos && IsPrecisionWord(rest.substr(last + 1))) {
      spec.precision = std::string(rest.substr(last + 1));
      rest = rest.substr(0, last);
    }
    const size_t colon = rest.rfind(':');
    const std::string_view field =
        colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    if (colon == std::string_view::npos || colon == 0 ||
        (!AllDigits(field) && !IsTimeField(field))) {
      return R::Error(unknown);
    }
    spec.kind = PlayerKind::kMcts;
    spec.checkpoint = std::string(rest.substr(0, colon));
    if (util::Status s =
            ReadBudgetField(field, quoted, kMaxMctsSimulations, "simulations per decision", spec);
        !s.ok()) {
      return s.error_value();
    }
    return spec;
  }
  return R::Error(unknown);
}

std::string DefaultPlayerName(const PlayerSpec& spec) {
  switch (spec.kind) {
    case PlayerKind::kRandom:
      return "random";
    case PlayerKind::kUct:
      return "uct_" + BudgetText(spec) + (spec.c_uct > 0 ? "_c" + ShortReal(spec.c_uct) : "");
    case PlayerKind::kMcts: {
      std::string stem = std::filesystem::path(spec.checkpoint).stem().string();
      for (char& c : stem) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        if (!ok) c = '_';
      }
      if (stem.empty() || stem[0] == '.') stem = "mcts" + stem;
      return spec.precision.empty() ? stem : stem + "_" + spec.precision;
    }
  }
  return "";
}

std::string GenerationName(long long generation) { return "gen_" + std::to_string(generation); }

}  // namespace veletas::arena
