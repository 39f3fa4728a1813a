// `veletas analyse`: win rates before and after every move of a game record, the engine's
// preferred moves, and marks for moves that lost much (play/game_analysis.h, the table in
// play/analysis_text.h).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "cli/interactive_player.h"
#include "play/analysis_text.h"
#include "play/batch_analysis.h"
#include "rules/notation.h"
#include "search/search_config.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {

struct AnalyseOptions {
  cli::PlayerArgs player;
  std::optional<std::string> record, file;
  std::optional<int> time_ms;
  int from = 1;
  bool json = false;
  bool json_stream = false;
  int parallel = 8;
};

// `analyse --json-stream`: positions as JSON lines on standard input, answers on standard
// output (play/batch_analysis.h), `o.parallel` searches sharing the network's batches.
int RunBatchAnalysis(const AnalyseOptions& o, const cli::InteractivePlayer& b) {
  play::BatchSetup setup;
  setup.rules = b.rules;
  setup.size = b.size;
  setup.fixed_game = b.fixed_game;
  setup.visits = b.visits;
  setup.parallel = o.parallel;
  const search::SearchConfig config = b.searcher->Config();
  const bool uct = b.searcher->IsUct();
  search::Evaluator* evaluator = b.evaluator.get();
  setup.make_searcher = [&, config, uct](int slot) {
    const uint64_t seed = b.seed + static_cast<uint64_t>(slot);
    auto s = uct ? play::TurnSearcher::Uct(search::UctConfig{}.c_uct, seed)
                 : play::TurnSearcher::Neural(*evaluator, config, seed);
    // The trees share the node budget of one search.
    const int64_t nodes = config.max_nodes > 0 ? config.max_nodes : search::DefaultMaxNodes();
    s->SetMaxNodes(std::max<int64_t>(1, nodes / o.parallel));
    return s;
  };
  auto errors = play::ServeBatchAnalysis(setup, std::cin, std::cout);
  if (!errors) return CommandError("analyse", errors.error_value());
  if (errors.value() > 0) {
    std::cerr << "veletas analyse: " << errors.value()
              << (errors.value() == 1 ? " query was" : " queries were")
              << " answered with an error (its \"error\" line)\n";
    return 2;
  }
  return 0;
}

// The record's text: --file, else RECORD, else standard input. Errors name the file.
util::Result<std::string> RecordText(const AnalyseOptions& o) {
  if (o.file) return util::ReadFile(*o.file);
  return RecordArgument(o.record);
}

int RunAnalyse(const AnalyseOptions& o) {
  if (o.json_stream && (o.record || o.file || o.json || o.from != 1 || o.time_ms)) {
    return UsageError("analyse",
                      "--json-stream reads positions from standard input; RECORD, "
                      "--file, --json, --from and --time do not apply to it");
  }
  auto text = o.json_stream ? util::Result<std::string>(std::string()) : RecordText(o);
  if (!text) return UsageError("analyse", text.error());
  auto player = cli::MakeInteractivePlayer(o.player, OpenPlayNetwork);
  if (!player) return UsageError("analyse", player.error());
  if (!o.player.uct && !player.value()->evaluator) {
    // Without a network (--model, or the shipped one of the game) UCT must be asked for.
    return UsageError("analyse", "expected --model CKPT (or --uct N): " + player.value()->notice);
  }
  if (!player.value()->notice.empty()) {
    std::cerr << "veletas analyse: " << player.value()->notice << "\n";
  }
  const cli::InteractivePlayer& b = *player.value();
  if (o.json_stream) return RunBatchAnalysis(o, b);
  auto game = rules::PlayRecord(b.rules, b.size, text.value());
  if (!game) return UsageError("analyse", game.error());
  const int n = static_cast<int>(game.value().turns.size());
  if (o.from > std::max(1, n)) {
    return UsageError("analyse", "--from: " + std::to_string(o.from) + " is past the record's " +
                                     std::to_string(n) + " moves");
  }
  play::AnalysisOptions options;
  options.first_move = o.from - 1;
  options.budget = o.time_ms ? play::SearchBudget{0, *o.time_ms} : play::SearchBudget{b.visits, 0};
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
  cli::AddPlayerOptions(cmd, o->player, /*allow_random=*/false, /*uct_fallback=*/false);
  CLI::Option* record = cmd.add_option(
      "RECORD", o->record, "the game in the notation of docs/RULES.md (default: standard input)");
  cmd.add_option("--file", o->file, "read the record from FILE")
      ->type_name("FILE")
      ->excludes(record);
  cmd.add_option("--time", o->time_ms,
                 "milliseconds per position (default: --simulations per sub-decision)")
      ->type_name("MS")
      ->check(CLI::Range(1, 100'000'000));
  cmd.add_option("--from", o->from, "first move to analyse (1 = the first)")
      ->type_name("MOVE")
      ->check(CLI::Range(1, 100'000'000));
  cmd.add_flag("--json", o->json, "print the analysis as one JSON object");
  cmd.add_flag("--json-stream", o->json_stream,
               "batch analysis: positions as JSON lines on standard input, one JSON answer line "
               "each on standard output (docs/ENGINE_PROTOCOL.md, \"Batch analysis\")");
  cmd.add_option("--parallel", o->parallel,
                 "--json-stream: positions searched at once, their network batches shared")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  return [o] { return RunAnalyse(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(analyse, "analyse",
                    "win rates before/after every move of a record, the engine's preferred moves, "
                    "?? / ? for moves that dropped more than 20% / 10%",
                    SetupAnalyse);

}  // namespace veletas::app
