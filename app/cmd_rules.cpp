// Rules subcommands: moves, show, perft.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/args.h"
#include "app/command.h"
#include "rules/notation.h"
#include "rules/turns.h"

namespace veletas::app {
namespace {

using rules::Position;

// Parses options, game options and the record; on failure prints the error and sets `exit`.
struct RecordContext {
  ParsedArgs args;
  GameOptions game;
  rules::Game record;
};

util::Result<RecordContext> ParseRecordCommand(const std::vector<OptionSpec>& extra,
                                               const std::vector<std::string>& argv) {
  std::vector<OptionSpec> specs = {{"rules", true}, {"size", true}};
  specs.insert(specs.end(), extra.begin(), extra.end());
  auto args = ParseArgs(specs, argv, 1);
  if (!args) return args.error_value();
  auto game = ParseGameOptions(args.value());
  if (!game) return game.error_value();
  const std::string text = RecordArgument(args.value());
  auto record = rules::PlayRecord(game.value().rules, game.value().size, text);
  if (!record) return record.error_value();
  return RecordContext{args.value(), game.value(), record.value()};
}

int RunMoves(const std::vector<std::string>& argv) {
  auto ctx = ParseRecordCommand({{"count", false}}, argv);
  if (!ctx) return UsageError("moves", ctx.error());
  const Position& pos = ctx.value().record.final;
  if (ctx.value().args.Has("count")) {
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

std::string DecisionText(const Position& pos) {
  switch (pos.Pending()) {
    case rules::Decision::kSetupShooter:
      return "place a setup shooter";
    case rules::Decision::kSetupStone:
      return "place the setup stone";
    case rules::Decision::kPie:
      return "swap colours, or decline by placing White's setup";
    case rules::Decision::kChooseShooter:
      return "move a shooter (or not), then shoot";
    case rules::Decision::kDestination:
      return "move the chosen shooter";
    case rules::Decision::kShot:
      return "shoot";
    case rules::Decision::kGameOver:
      return "none (game over)";
  }
  return "";
}

int RunShow(const std::vector<std::string>& argv) {
  auto ctx = ParseRecordCommand({{"json", false}}, argv);
  if (!ctx) return UsageError("show", ctx.error());
  const Position& pos = ctx.value().record.final;
  const int black = pos.ClaimCount(rules::Color::kBlack);
  const int white = pos.ClaimCount(rules::Color::kWhite);
  const auto winner = pos.Winner();
  if (ctx.value().args.Has("json")) {
    nlohmann::json j;
    j["size"] = pos.Size();
    j["rules"] = rules::RuleSetName(pos.Rules());
    j["to_move"] = rules::ColorName(pos.ToMove());
    j["to_move_player"] = pos.ToMovePlayer() == 0 ? "first" : "second";
    j["black_player"] = pos.BlackPlayer() == 0 ? "first" : "second";
    j["decision"] = rules::DecisionName(pos.Pending());
    j["claimed"] = {{"black", black}, {"white", white}};
    j["claims_to_win"] = pos.ClaimsToWin();
    j["winner"] = winner ? nlohmann::json(rules::ColorName(*winner)) : nlohmann::json(nullptr);
    j["turns_played"] = pos.TurnsPlayed();
    j["board"] = rules::BoardRows(pos);
    char hash[32];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(pos.Hash()));
    j["hash"] = hash;
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::cout << rules::Diagram(pos);
  std::cout << "rules: " << rules::RuleSetName(pos.Rules()) << ", " << pos.Size() << "x"
            << pos.Size() << ", " << pos.TurnsPlayed() << " turns played\n";
  std::cout << "to move: " << (pos.ToMove() == rules::Color::kBlack ? "Black" : "White") << " ("
            << (pos.ToMovePlayer() == 0 ? "first" : "second") << " player)\n";
  std::cout << "decision: " << DecisionText(pos) << "\n";
  std::cout << "claimed: Black " << black << ", White " << white << " (" << pos.ClaimsToWin()
            << " to win)\n";
  std::cout << "winner: "
            << (winner ? (*winner == rules::Color::kBlack ? "Black" : "White") : "none") << "\n";
  std::cout << "legend: x black stone, o white stone, S shooter, X/O shooter claimed by "
               "Black/White\n";
  return 0;
}

int RunPerft(const std::vector<std::string>& argv) {
  auto ctx = ParseRecordCommand({{"depth", true}}, argv);
  if (!ctx) return UsageError("perft", ctx.error());
  if (!ctx.value().args.Has("depth")) return UsageError("perft", "--depth D is required");
  auto depth = ctx.value().args.Int("depth", 1, 0, 20);
  if (!depth) return UsageError("perft", depth.error());
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = rules::Perft(ctx.value().record.final, static_cast<int>(depth.value()));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "perft(" << depth.value() << ") = " << n << "\n";
  std::printf("time %.3f s, %.0f sequences/s\n", secs, secs > 0 ? n / secs : 0.0);
  return 0;
}

}  // namespace

VELETAS_COMMAND(moves, "moves", "[--rules standard|classic] [--size 7|9|10] [--count] [RECORD]",
                "list the legal full turns after RECORD (or standard input), sorted", RunMoves);
VELETAS_COMMAND(show, "show", "[--rules ..] [--size ..] [--json] [RECORD]",
                "show the position after RECORD as a diagram or JSON", RunShow);
VELETAS_COMMAND(perft, "perft", "--depth D [--rules ..] [--size ..] [RECORD]",
                "count legal full-turn sequences of length D from the position", RunPerft);

}  // namespace veletas::app
