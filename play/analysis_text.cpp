#include "play/analysis_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

#include "util/text.h"

namespace veletas::play {
namespace {

// printf into a string (the play layer has no fmt: the WebAssembly build compiles it).
template <class... Args>
std::string Printf(const char* format, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

// A fraction with four decimals, as a double that prints as such.
double Rounded(float x) { return std::round(static_cast<double>(x) * 1e4) / 1e4; }

}  // namespace

std::string MoverName(const MoveAnalysis& m) {
  return std::string(m.color == rules::Color::kBlack ? "Black" : "White") +
         (m.player == 0 ? " (1st)" : " (2nd)");
}

std::string BudgetText(const SearchBudget& budget, bool uct) {
  if (budget.time_ms > 0) return std::to_string(budget.time_ms) + " ms per position";
  return std::to_string(budget.visits) +
         (uct ? " playouts per position" : " simulations per sub-decision");
}

std::string AnalysisTableHead(rules::RuleSet rules, int size, int moves, const std::string& engine,
                              const std::string& budget, const AnalysisOptions& options) {
  return Printf("analysis: %s %dx%d, %d moves; engine %s, %s\n", rules::RuleSetName(rules), size,
                size, moves, engine.c_str(), budget.c_str()) +
         Printf("win rates are the mover's; ?? = dropped more than %.0f%%, ? = more than %.0f%%\n",
                100.0 * options.blunder_drop, 100.0 * options.mistake_drop) +
         Printf("%4s  %-11s %-18s %7s %7s %6s %-3s %-18s %7s\n", "move", "player", "played",
                "before", "after", "drop %", "", "best move", "its win");
}

std::string AnalysisTableLine(const MoveAnalysis& m) {
  return Printf("%4d  %-11s %-18s %7s %7s %6.1f %-3s %-18s %7s\n", m.index + 1,
                MoverName(m).c_str(), m.move.c_str(), util::FormatPercent(m.before).c_str(),
                util::FormatPercent(m.after).c_str(), 100.0 * m.drop, m.mark.c_str(),
                m.best_move.c_str(), util::FormatPercent(m.best_win_rate).c_str());
}

std::array<std::array<int, 2>, 2> CountMarks(const std::vector<MoveAnalysis>& moves) {
  std::array<std::array<int, 2>, 2> marks{};
  for (const MoveAnalysis& m : moves) {
    if (m.mark == "??") ++marks[m.player][0];
    if (m.mark == "?") ++marks[m.player][1];
  }
  return marks;
}

std::string MarksText(const std::vector<MoveAnalysis>& moves) {
  const auto marks = CountMarks(moves);
  std::string text;
  for (int p = 0; p < 2; ++p) {
    text += Printf("%s player: %d blunder(s) ??, %d mistake(s) ?\n", p == 0 ? "first" : "second",
                   marks[p][0], marks[p][1]);
  }
  return text;
}

std::string AnalysisJson(rules::RuleSet rules, int size, const std::string& engine,
                         const std::string& budget, const AnalysisOptions& options,
                         const std::vector<MoveAnalysis>& moves) {
  nlohmann::json j;
  j["rules"] = rules::RuleSetName(rules);
  j["size"] = size;
  j["engine"] = engine;
  j["budget"] = budget;
  // Fractions rounded to what they mean (four decimals: 0.2, not 0.20000000298023224).
  j["blunder_drop"] = Rounded(options.blunder_drop);
  j["mistake_drop"] = Rounded(options.mistake_drop);
  j["moves"] = nlohmann::json::array();
  for (const MoveAnalysis& m : moves) {
    j["moves"].push_back({{"number", m.index + 1},
                          {"player", m.player == 0 ? "first" : "second"},
                          {"color", m.color == rules::Color::kBlack ? "black" : "white"},
                          {"move", m.move},
                          {"win_rate_before", Rounded(m.before)},
                          {"win_rate_after", Rounded(m.after)},
                          {"after_exact", m.after_exact},
                          {"drop", Rounded(m.drop)},
                          {"mark", m.mark},
                          {"best_move", m.best_move},
                          {"best_win_rate", Rounded(m.best_win_rate)},
                          {"best_pv", m.best_pv}});
  }
  const auto marks = CountMarks(moves);
  for (int p = 0; p < 2; ++p) {
    j["summary"][p == 0 ? "first" : "second"] = {{"blunders", marks[p][0]},
                                                 {"mistakes", marks[p][1]}};
  }
  return j.dump(1);
}

}  // namespace veletas::play
