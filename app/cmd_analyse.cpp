// `veletas analyse`: win rates before and after every move of a game record, the engine's
// preferred moves, and marks for moves that lost much (play/game_analysis.h, the table in
// play/analysis_text.h).
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "app/interactive_player.h"
#include "play/analysis_text.h"
#include "rules/notation.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {

struct AnalyseOptions {
  PlayerArgs player;
  std::optional<std::string> record, file;
  int time_ms = 0;
  int from = 1;
  bool json = false;
};

// The record's text: --file, else RECORD, else standard input. Errors name the file.
util::Result<std::string> RecordText(const AnalyseOptions& o) {
  if (o.file) return util::ReadFile(*o.file);
  return RecordArgument(o.record);
}

int RunAnalyse(const AnalyseOptions& o) {
  auto text = RecordText(o);
  if (!text) return UsageError("analyse", text.error());
  auto player = MakeInteractivePlayer(o.player);
  if (!player) return UsageError("analyse", player.error());
  if (!o.player.uct && !player.value()->evaluator) {
    // Without a network (--model, or the shipped one of the game) UCT must be asked for.
    return UsageError("analyse", "expected --model CKPT (or --uct N): " + player.value()->notice);
  }
  if (!player.value()->notice.empty()) {
    std::cerr << "veletas analyse: " << player.value()->notice << "\n";
  }
  const InteractivePlayer& b = *player.value();
  auto game = rules::PlayRecord(b.rules, b.size, text.value());
  if (!game) return UsageError("analyse", game.error());
  const int n = static_cast<int>(game.value().turns.size());
  if (o.from > std::max(1, n)) {
    return UsageError("analyse", "--from: " + std::to_string(o.from) + " is past the record's " +
                                     std::to_string(n) + " moves");
  }
  play::AnalysisOptions options;
  options.first_move = o.from - 1;
  options.budget =
      o.time_ms > 0 ? play::SearchBudget{0, o.time_ms} : play::SearchBudget{b.visits, 0};
  const std::string budget = play::BudgetText(options.budget, b.searcher->IsUct());
  if (!o.json) {
    std::cout << play::AnalysisTableHead(b.rules, b.size, n, b.description, budget, options);
  }
  const auto moves =
      play::AnalyseGame(game.value(), *b.searcher, options, [&](const play::MoveAnalysis& m) {
        if (!o.json) std::cout << play::AnalysisTableLine(m) << std::flush;
      });
  if (o.json) {
    std::cout << play::AnalysisJson(b.rules, b.size, b.description, budget, options, moves) << "\n";
    return 0;
  }
  std::cout << play::MarksText(moves);
  return 0;
}

CommandRun SetupAnalyse(CLI::App& cmd) {
  auto o = std::make_shared<AnalyseOptions>();
  AddPlayerOptions(cmd, o->player, /*allow_random=*/false);
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
  return [o] { return RunAnalyse(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(analyse, "analyse",
                    "win rates before/after every move of a record, the engine's preferred moves, "
                    "?? / ? for moves that dropped more than 20% / 10%",
                    SetupAnalyse);

}  // namespace veletas::app
