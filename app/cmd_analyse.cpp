// `veletas analyse`: win rates before and after every move of a game record, the engine's
// preferred moves, and marks for moves that lost much (app/game_analysis.h).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/search_backend.h"
#include "play/game_analysis.h"
#include "rules/notation.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {

std::string Percent(float rate) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%5.1f%%", 100.0 * static_cast<double>(rate));
  return buf;
}

std::string Who(const play::MoveAnalysis& m) {
  return std::string(m.color == rules::Color::kBlack ? "Black" : "White") +
         (m.player == 0 ? " (1st)" : " (2nd)");
}

struct AnalyseOptions {
  BackendArgs backend;
  std::optional<std::string> record, file;
  int time_ms = 0;
  int from = 1;
  bool json = false;
};

int RunAnalyse(const AnalyseOptions& o) {
  std::string text;
  if (o.file) {
    auto read = util::ReadFile(*o.file);
    if (!read) return UsageError("analyse", read.error());
    text = std::move(read.value());
  } else {
    text = RecordArgument(o.record);
  }
  auto backend = MakeSearchBackend(o.backend);
  if (!backend) return UsageError("analyse", backend.error());
  SearchBackend& b = *backend.value();
  auto game = rules::PlayRecord(b.rules, b.size, text);
  if (!game) return UsageError("analyse", game.error());
  const int n = static_cast<int>(game.value().turns.size());
  if (o.from > std::max(1, n)) {
    return UsageError("analyse", "--from: " + std::to_string(o.from) + " is past the record's " +
                                     std::to_string(n) + " moves");
  }

  play::AnalysisOptions options;
  options.first_move = o.from - 1;
  if (o.time_ms > 0) {
    options.budget.time_ms = o.time_ms;
  } else {
    options.budget.visits = b.visits;
  }
  const bool json = o.json;
  const std::string budget_text =
      options.budget.time_ms > 0
          ? std::to_string(options.budget.time_ms) + " ms per position"
          : std::to_string(options.budget.visits) +
                (b.searcher->IsUct() ? " playouts per position" : " simulations per sub-decision");
  if (!json) {
    std::printf("analysis: %s %dx%d, %d moves; engine %s, %s\n", rules::RuleSetName(b.rules),
                b.size, b.size, n, b.description.c_str(), budget_text.c_str());
    std::printf("win rates are the mover's; ?? = dropped more than %.0f%%, ? = more than %.0f%%\n",
                100.0 * options.blunder_drop, 100.0 * options.mistake_drop);
    std::printf("%4s  %-11s %-18s %7s %7s %6s %-3s %-18s %7s\n", "move", "player", "played",
                "before", "after", "drop", "", "best", "best");
  }
  const auto moves =
      play::AnalyseGame(game.value(), *b.searcher, options, [&](const play::MoveAnalysis& m) {
        if (json) return;
        std::printf("%4d  %-11s %-18s %7s %7s %6.1f %-3s %-18s %7s\n", m.index + 1, Who(m).c_str(),
                    m.move.c_str(), Percent(m.before).c_str(), Percent(m.after).c_str(),
                    100.0 * m.drop, m.mark.c_str(), m.best_move.c_str(),
                    Percent(m.best_win_rate).c_str());
        std::fflush(stdout);
      });
  int marks[2][2] = {};  // [player][blunder, mistake]
  for (const play::MoveAnalysis& m : moves) {
    if (m.mark == "??") ++marks[m.player][0];
    if (m.mark == "?") ++marks[m.player][1];
  }
  if (json) {
    nlohmann::json j;
    j["rules"] = rules::RuleSetName(b.rules);
    j["size"] = b.size;
    j["engine"] = b.description;
    j["budget"] = budget_text;
    j["blunder_drop"] = options.blunder_drop;
    j["mistake_drop"] = options.mistake_drop;
    j["moves"] = nlohmann::json::array();
    for (const play::MoveAnalysis& m : moves) {
      j["moves"].push_back({{"number", m.index + 1},
                            {"player", m.player == 0 ? "first" : "second"},
                            {"color", m.color == rules::Color::kBlack ? "black" : "white"},
                            {"move", m.move},
                            {"win_rate_before", m.before},
                            {"win_rate_after", m.after},
                            {"after_exact", m.after_exact},
                            {"drop", m.drop},
                            {"mark", m.mark},
                            {"best_move", m.best_move},
                            {"best_win_rate", m.best_win_rate},
                            {"best_pv", m.best_pv}});
    }
    for (int p = 0; p < 2; ++p) {
      j["summary"][p == 0 ? "first" : "second"] = {{"blunders", marks[p][0]},
                                                   {"mistakes", marks[p][1]}};
    }
    std::cout << j.dump(1) << "\n";
  } else {
    for (int p = 0; p < 2; ++p) {
      std::printf("%s player: %d blunder(s) ??, %d mistake(s) ?\n", p == 0 ? "first" : "second",
                  marks[p][0], marks[p][1]);
    }
  }
  return 0;
}

CommandRun SetupAnalyse(CLI::App& cmd) {
  auto o = std::make_shared<AnalyseOptions>();
  AddBackendOptions(cmd, o->backend, /*allow_random=*/false);
  CLI::Option* record = cmd.add_option(
      "RECORD", o->record, "the game in the notation of docs/RULES.md (default: standard input)");
  cmd.add_option("--file", o->file, "read the record from FILE")
      ->type_name("FILE")
      ->excludes(record);
  cmd.add_option("--time", o->time_ms, "milliseconds per position instead of --simulations")
      ->type_name("MS")
      ->check(CLI::Range(1, 100'000'000));
  cmd.add_option("--from", o->from, "first move to analyse (1 = the first)")
      ->type_name("MOVE")
      ->check(CLI::Range(1, 100'000'000));
  cmd.add_flag("--json", o->json, "print the analysis as one JSON object");
  return [o] {
    if (!o->backend.model && !o->backend.uct) {
      return UsageError("analyse", "expected --model CKPT (or --uct N)");
    }
    return RunAnalyse(*o);
  };
}

}  // namespace

VELETAS_CLI_COMMAND(analyse, "analyse",
                    "win rates before/after every move of a record, the engine's preferred moves, "
                    "?? / ? for moves that dropped more than 20% / 10%",
                    SetupAnalyse);

}  // namespace veletas::app
