// Rules subcommands: moves, show, perft.
#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "rules/notation.h"
#include "rules/position_text.h"
#include "rules/turns.h"
#include "util/clock.h"

namespace veletas::app {
namespace {

using rules::Position;

// --rules, --size and the RECORD of a game so far.
struct RecordArgs {
  GameArgs game;
  std::optional<std::string> record;
};

void AddRecordArgs(CLI::App& cmd, RecordArgs& args) {
  AddGameOptions(cmd, args.game, "standard 10x10");
  cmd.add_option("RECORD", args.record,
                 "the game so far in the notation of docs/RULES.md (default: standard input)");
}

// The position after the record.
util::Result<Position> PlayRecordArgs(const RecordArgs& args) {
  const config::GameConfig game = ResolveGame(args.game);
  auto record = rules::PlayRecord(game.rules, game.size, RecordArgument(args.record));
  if (!record) return record.error_value();
  return record.value().final;
}

struct MovesOptions {
  RecordArgs record;
  bool count = false;
};

int RunMoves(const MovesOptions& o) {
  auto played = PlayRecordArgs(o.record);
  if (!played) return CommandError("moves", played.error_value());
  const Position& pos = played.value();
  if (o.count) {
    std::cout << rules::CountTurns(pos) << "\n";
    return 0;
  }
  std::string out;
  for (const std::string& l : rules::SortedMoveNames(pos)) {
    out += l;
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

struct ShowOptions {
  RecordArgs record;
  bool json = false;
};

int RunShow(const ShowOptions& o) {
  auto played = PlayRecordArgs(o.record);
  if (!played) return CommandError("show", played.error_value());
  const Position& pos = played.value();
  if (o.json) {
    const auto winner = pos.Winner();
    nlohmann::json j;
    j["size"] = pos.Size();
    j["rules"] = rules::RuleSetName(pos.Rules());
    j["to_move"] = rules::ColorName(pos.ToMove());
    j["to_move_player"] = pos.ToMovePlayer() == 0 ? "first" : "second";
    j["black_player"] = pos.BlackPlayer() == 0 ? "first" : "second";
    j["decision"] = rules::DecisionName(pos.Pending());
    j["claimed"] = {{"black", pos.ClaimCount(rules::Color::kBlack)},
                    {"white", pos.ClaimCount(rules::Color::kWhite)}};
    j["claims_to_win"] = pos.ClaimsToWin();
    j["winner"] = winner ? nlohmann::json(rules::ColorName(*winner)) : nlohmann::json(nullptr);
    j["turns_played"] = pos.TurnsPlayed();
    j["board"] = rules::BoardRows(pos);
    j["hash"] = fmt::format("{:016x}", pos.Hash());
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::cout << rules::Diagram(pos) << rules::PositionReport(pos);
  return 0;
}

struct PerftOptions {
  RecordArgs record;
  int depth = 1;
};

int RunPerft(const PerftOptions& o) {
  auto played = PlayRecordArgs(o.record);
  if (!played) return CommandError("perft", played.error_value());
  const auto start = util::SteadyClock::now();
  const uint64_t n = rules::Perft(played.value(), o.depth);
  const double secs = util::SecondsSince(start);
  std::cout << "perft(" << o.depth << ") = " << n << "\n";
  std::printf("time %.3f s, %.0f sequences/s\n", secs, secs > 0 ? n / secs : 0.0);
  return 0;
}

CommandRun SetupMoves(CLI::App& cmd) {
  auto o = std::make_shared<MovesOptions>();
  AddRecordArgs(cmd, o->record);
  cmd.add_flag("--count", o->count, "print only the number of legal full turns");
  return [o] { return RunMoves(*o); };
}

CommandRun SetupShow(CLI::App& cmd) {
  auto o = std::make_shared<ShowOptions>();
  AddRecordArgs(cmd, o->record);
  cmd.add_flag("--json", o->json, "print the position as one JSON object");
  return [o] { return RunShow(*o); };
}

CommandRun SetupPerft(CLI::App& cmd) {
  auto o = std::make_shared<PerftOptions>();
  AddRecordArgs(cmd, o->record);
  Required(cmd.add_option("--depth", o->depth, "full turns to look ahead"))
      ->check(CLI::Range(0, 20));
  return [o] { return RunPerft(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(moves, "moves",
                    "list the legal full turns after RECORD (or standard input), sorted",
                    SetupMoves);
VELETAS_CLI_COMMAND(show, "show", "show the position after RECORD as a diagram or JSON", SetupShow);
VELETAS_CLI_COMMAND(perft, "perft", "count legal full-turn sequences of length D from the position",
                    SetupPerft);

}  // namespace veletas::app
