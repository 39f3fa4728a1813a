// The built `veletas` binary (VELETAS_BINARY) driven through pipes: play (illegal moves,
// hint, undo, save, the pie rule, a whole game against --random), engine (commands,
// errors, time budget, a network engine) and analyse (a fresh network, a constructed
// blunder, bad records).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "rules/notation.h"
#include "rules/position_text.h"
#include "tests/play/test_util.h"

#ifndef VELETAS_BINARY
#error "VELETAS_BINARY must name the veletas executable"
#endif

namespace veletas::play {
namespace {

using rules::Position;
using rules::RuleSet;
using testing::Child;
using testing::TempDir;

const char kPrompt[] = "(you)> ";

std::vector<std::string> Argv(std::initializer_list<std::string> args) {
  std::vector<std::string> v = {VELETAS_BINARY};
  v.insert(v.end(), args);
  return v;
}

// The moves announced as "veletas plays MOVE" in `text`, in order.
std::vector<std::string> EngineMoves(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("veletas plays ", 0) == 0) {
      std::istringstream w(line.substr(14));
      std::string m;
      w >> m;
      out.push_back(m);
    }
  }
  return out;
}

// Applies the engine's announced moves to `pos`, checking each is legal.
void ApplyEngineMoves(const std::string& text, Position& pos, std::string& record) {
  for (const std::string& m : EngineMoves(text)) {
    auto t = rules::ParseTurn(pos, m);
    ASSERT_TRUE(t.ok()) << m << ": " << t.error();
    rules::ApplyTurn(pos, t.value());
    record += (record.empty() ? "" : " ") + m;
  }
}

TEST(PlayCli, AWholeGameAgainstRandomEndsWithTheResult) {
  TempDir dir;
  const std::string rec = dir.File("game.txt");
  Child c(Argv({"play", "--random", "--size", "7", "--seed", "4", "--record", rec}),
          dir.File("err"));
  Position pos = Position::Initial(RuleSet::kStandard, 7);
  std::string record;
  util::Rng rng(99);
  std::string out;
  for (int turn = 0; turn < 200; ++turn) {
    out = c.ReadUntil(kPrompt, 60, /*eof_ok=*/true);
    ApplyEngineMoves(out, pos, record);
    if (out.find("result:") != std::string::npos) break;
    ASSERT_FALSE(pos.IsTerminal()) << out;
    // The diagram shown before the prompt is the position the test tracks.
    EXPECT_NE(out.find(rules::Diagram(pos)), std::string::npos) << out;
    const rules::Turn t = rules::RandomTurn(pos, rng);
    const std::string move = rules::TurnToString(pos, t);
    rules::ApplyTurn(pos, t);
    record += (record.empty() ? "" : " ") + move;
    c.Send(move + "\n");
  }
  ASSERT_TRUE(pos.IsTerminal()) << out;
  const int winner =
      pos.Winner() == rules::Color::kBlack ? pos.BlackPlayer() : 1 - pos.BlackPlayer();
  const std::string result = std::string("result: ") +
                             (pos.Winner() == rules::Color::kBlack ? "Black" : "White") + " (" +
                             (winner == 0 ? "first player, you" : "second player, veletas") +
                             ") wins after " + std::to_string(pos.TurnsPlayed()) + " turns";
  EXPECT_NE(out.find(result), std::string::npos) << out;
  EXPECT_NE(out.find("record: " + record + "\n"), std::string::npos) << out;
  EXPECT_EQ(c.Wait(), 0);
  EXPECT_EQ(testing::ReadAll(rec), record + "\n");
}

TEST(PlayCli, IllegalMoveHintUndoAndSave) {
  TempDir dir;
  Child c(Argv({"play", "--uct", "200", "--size", "7", "--seed", "1"}), dir.File("err"));
  const Position start = Position::Initial(RuleSet::kStandard, 7);
  std::string out = c.ReadUntil(kPrompt);
  EXPECT_NE(out.find(rules::Diagram(start)), std::string::npos) << out;

  EXPECT_NE(out.find(rules::DiagramLegend()), std::string::npos) << out;

  // A shooter move during the setup is answered as such; another bad move with the rules'
  // error.
  c.Send("c3-c9/c1\n");
  out = c.ReadUntil(kPrompt);
  EXPECT_NE(out.find("\"c3-c9/c1\" moves a shooter, but this is the setup phase: Black places"),
            std::string::npos)
      << out;
  c.Send("q9/a1\n");
  out = c.ReadUntil(kPrompt);
  EXPECT_NE(out.find("illegal move \"q9/a1\": " + rules::ParseTurn(start, "q9/a1").error()),
            std::string::npos)
      << out;

  c.Send("hint\n");
  out = c.ReadUntil(kPrompt);
  const std::regex hint_line(R"(^\s+(\d)\. (\S+)\s+win rate\s+([\d.]+)%\s+visits (\d+)$)");
  int hints = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, hint_line)) continue;
    ++hints;
    EXPECT_EQ(std::stoi(m[1]), hints);
    EXPECT_TRUE(rules::ParseTurn(start, m[2].str()).ok()) << line;
    EXPECT_LE(std::stod(m[3]), 100.0);
    EXPECT_GT(std::stoi(m[4]), 0);
  }
  EXPECT_GE(hints, 1) << out;
  EXPECT_LE(hints, 5) << out;

  c.Send("c3/a1\n");
  out = c.ReadUntil(kPrompt);
  Position pos = start;
  std::string record;
  rules::ApplyTurn(pos, rules::ParseTurn(pos, "c3/a1").value());
  ApplyEngineMoves(out, pos, record);
  ASSERT_EQ(EngineMoves(out).size(), 1u) << out;
  EXPECT_NE(out.find("its win rate"), std::string::npos) << out;
  // The last move above each board.
  EXPECT_NE(out.find("last move: Black c3/a1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("last move: White " + EngineMoves(out)[0] + "\n"), std::string::npos) << out;
  EXPECT_EQ(pos.TurnsPlayed(), 2);

  // undo takes back the engine's reply and the human's move.
  c.Send("undo\n");
  out = c.ReadUntil(kPrompt);
  EXPECT_NE(out.find(rules::Diagram(start)), std::string::npos) << out;
  c.Send("record\n");
  EXPECT_NE(c.ReadUntil(kPrompt).find("record: \n"), std::string::npos);

  c.Send("d4/a1\n");
  out = c.ReadUntil(kPrompt);
  const std::vector<std::string> reply = EngineMoves(out);
  ASSERT_EQ(reply.size(), 1u) << out;
  c.Send("save " + dir.File("saved.txt") + "\n");
  out = c.ReadUntil(kPrompt);
  EXPECT_NE(out.find("saved the record"), std::string::npos) << out;
  EXPECT_EQ(testing::ReadAll(dir.File("saved.txt")), "d4/a1 " + reply[0] + "\n");
  c.Send("help\n");
  EXPECT_NE(c.ReadUntil(kPrompt).find("hint"), std::string::npos);
  c.Send("quit\n");
  EXPECT_NE(c.ReadToEnd().find("record: d4/a1 " + reply[0]), std::string::npos);
  EXPECT_EQ(c.Wait(), 0);
}

TEST(PlayCli, SecondPlayerMaySwap) {
  TempDir dir;
  Child c(Argv({"play", "--uct", "100", "--size", "7", "--seed", "2", "--human", "second"}),
          dir.File("err"));
  // The engine places Black's setup first; nothing of the human's to undo yet.
  std::string out = c.ReadUntil(kPrompt);
  Position pos = Position::Initial(RuleSet::kStandard, 7);
  std::string record;
  ApplyEngineMoves(out, pos, record);
  ASSERT_EQ(pos.Pending(), rules::Decision::kPie) << out;
  EXPECT_NE(out.find("swap"), std::string::npos) << out;
  c.Send("undo\n");
  EXPECT_NE(c.ReadUntil(kPrompt).find("undo: you have not moved yet"), std::string::npos);
  // Swapping makes the human Black; the engine (now White) places White's setup.
  c.Send("swap\n");
  out = c.ReadUntil(kPrompt);
  rules::ApplyTurn(pos, rules::ParseTurn(pos, "swap").value());
  record += " swap";
  ApplyEngineMoves(out, pos, record);
  EXPECT_EQ(record.substr(record.find(' ') + 1, 4), "swap") << record;
  EXPECT_EQ(pos.Pending(), rules::Decision::kChooseShooter);
  EXPECT_EQ(pos.ToMove(), rules::Color::kBlack);
  EXPECT_EQ(pos.ToMovePlayer(), 1);  // the human, second player, holds Black
  EXPECT_NE(out.find("Black (you)> "), std::string::npos) << out;
  c.CloseInput();  // end of input ends the program
  EXPECT_NE(c.ReadToEnd().find("end of input"), std::string::npos);
  EXPECT_EQ(c.Wait(), 0);
}

TEST(PlayCli, BadOptionsExitWithTwo) {
  TempDir dir;
  for (const auto& args : std::vector<std::vector<std::string>>{
           Argv({"play", "--human", "both"}), Argv({"play", "--uct", "10", "--random"}),
           Argv({"play", "--size", "8"}), Argv({"play", "--model", dir.File("missing.ckpt")}),
           Argv({"engine", "--uct", "0"}), Argv({"engine", "--uct", "10", "--threads", "2"})}) {
    Child c(args, dir.File("err"));
    c.CloseInput();
    c.ReadToEnd();
    EXPECT_EQ(c.Wait(), 2) << args[1] << " " << args[2];
    EXPECT_NE(testing::ReadAll(dir.File("err")).find("veletas"), std::string::npos);
  }
}

// `text` without the carriage returns a terminal adds to its line ends.
std::string WithoutReturns(std::string text) {
  std::erase(text, '\r');
  return text;
}

// Plain `veletas play` in a terminal (a pseudo-terminal from util-linux's `script`) asks for
// the board size first; the answer sets the game (issue 47).
TEST(PlayCli, InATerminalPlainPlayAsksForTheBoardSize) {
  TempDir dir;
  Child c({"/usr/bin/script", "-qec", std::string(VELETAS_BINARY) + " play --random --seed 4",
           "/dev/null"},
          dir.File("err"));
  const std::string asked = WithoutReturns(c.ReadUntil("(Enter: 10x10)? "));
  EXPECT_NE(asked.find("Board sizes:  7x7"), std::string::npos) << asked;
  c.Send("8\n");
  const std::string again = WithoutReturns(c.ReadUntil("(Enter: 10x10)? "));
  EXPECT_NE(again.find("expected 7, 9 or 10"), std::string::npos) << again;
  c.Send("7\n");
  const std::string game = WithoutReturns(c.ReadUntil(kPrompt));
  EXPECT_NE(game.find(rules::Diagram(Position::Initial(RuleSet::kStandard, 7))), std::string::npos)
      << game;
  c.Send("quit\n");
  c.ReadToEnd();
  EXPECT_EQ(c.Wait(), 0);
}

// Through a pipe nothing is asked: the game is standard 10x10, as before.
TEST(PlayCli, ThroughAPipePlainPlayIsTenByTen) {
  TempDir dir;
  Child c(Argv({"play", "--random", "--seed", "4"}), dir.File("err"));
  const std::string game = c.ReadUntil(kPrompt);
  EXPECT_EQ(game.find("Board size"), std::string::npos) << game;
  EXPECT_NE(game.find(rules::Diagram(Position::Initial(RuleSet::kStandard, 10))), std::string::npos)
      << game;
  c.Send("quit\n");
  c.ReadToEnd();
  EXPECT_EQ(c.Wait(), 0);
}

// One engine command and its response (up to the empty line that ends it).
std::string Ask(Child& c, const std::string& command) {
  c.Send(command + "\n");
  return c.ReadUntil("\n\n");
}

TEST(EngineCli, EveryCommandThroughAPipe) {
  TempDir dir;
  Child c(Argv({"engine", "--uct", "200", "--size", "7", "--seed", "1"}), dir.File("err"));
  EXPECT_EQ(Ask(c, "protocol_version"), "= 2\n\n");
  EXPECT_EQ(Ask(c, "1 name"), "=1 veletas-zero\n\n");
  EXPECT_NE(Ask(c, "version").find("uct(200)"), std::string::npos);
  const std::string commands = Ask(c, "list_commands");
  for (const char* name : {"genmove", "analyse", "setoption", "undo", "record", "showboard"}) {
    EXPECT_NE(commands.find(std::string("\n") + name + "\n"), std::string::npos) << name;
  }
  // Malformed commands and illegal moves: an error, and the engine goes on.
  EXPECT_EQ(Ask(c, "bogus").substr(0, 2), "? ");
  EXPECT_EQ(Ask(c, "7 play").substr(0, 3), "?7 ");
  EXPECT_EQ(Ask(c, "genmove visits lots").substr(0, 2), "? ");
  const Position start = Position::Initial(RuleSet::kStandard, 7);
  EXPECT_EQ(Ask(c, "play c3-c9/c1"),
            "? illegal move \"c3-c9/c1\": " + rules::ParseTurn(start, "c3-c9/c1").error() + "\n\n");
  EXPECT_EQ(Ask(c, "name"), "= veletas-zero\n\n");

  const std::string empty_board = Ask(c, "showboard");
  EXPECT_NE(empty_board.find(rules::Diagram(start)), std::string::npos) << empty_board;
  EXPECT_EQ(Ask(c, "play c3/a1"), "=\n\n");
  Position pos = start;
  rules::ApplyTurn(pos, rules::ParseTurn(pos, "c3/a1").value());
  const std::string board = Ask(c, "showboard");
  std::string reply = Ask(c, "genmove visits 100");
  ASSERT_EQ(reply.substr(0, 2), "= ");
  const std::string move = reply.substr(2, reply.size() - 4);
  ASSERT_TRUE(rules::ParseTurn(pos, move).ok()) << move;
  EXPECT_EQ(Ask(c, "record"), "= c3/a1 " + move + "\n\n");
  EXPECT_EQ(Ask(c, "undo"), "=\n\n");
  EXPECT_EQ(Ask(c, "showboard"), board);
  EXPECT_EQ(Ask(c, "record"), "= c3/a1\n\n");

  // analyse: candidates in notation, legal, without playing.
  const std::string analysis = Ask(c, "analyse visits 300");
  std::istringstream lines(analysis);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("= info simulations ", 0), 0u) << analysis;
  int candidates = 0;
  while (std::getline(lines, line) && !line.empty()) {
    std::istringstream w(line);
    std::string kw, m;
    w >> kw >> m;
    EXPECT_EQ(kw, "move");
    EXPECT_TRUE(rules::ParseTurn(pos, m).ok()) << line;
    ++candidates;
  }
  EXPECT_GE(candidates, 1);
  EXPECT_EQ(Ask(c, "record"), "= c3/a1\n\n");

  // A time budget is honoured: searched until spent, then answered.
  const auto t0 = std::chrono::steady_clock::now();
  reply = Ask(c, "genmove time 400");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(reply.substr(0, 2), "= ");
  EXPECT_GE(secs, 0.3);
  EXPECT_LE(secs, 3.0);

  EXPECT_EQ(Ask(c, "setoption simulations 50"), "=\n\n");
  EXPECT_EQ(Ask(c, "setoption threads 2").substr(0, 2), "? ");  // uct has no threads setting
  EXPECT_EQ(Ask(c, "newgame classic 9"), "=\n\n");
  EXPECT_NE(Ask(c, "showboard").find("classic 9x9"), std::string::npos);
  EXPECT_EQ(Ask(c, "result"), "= none\n\n");
  EXPECT_EQ(Ask(c, "quit"), "=\n\n");
  EXPECT_EQ(c.ReadToEnd(), "");
  EXPECT_EQ(c.Wait(), 0);
}

TEST(EngineCli, EndOfInputEndsTheEngine) {
  TempDir dir;
  Child c(Argv({"engine", "--uct", "50"}), dir.File("err"));
  EXPECT_EQ(Ask(c, "name"), "= veletas-zero\n\n");
  c.CloseInput();
  EXPECT_EQ(c.ReadToEnd(), "");
  EXPECT_EQ(c.Wait(), 0);
}

// A freshly initialised small network for 7x7 standard (weights from the seed only),
// written by `veletas init-model`.
std::string FreshModel(const TempDir& dir) {
  const std::string config = dir.File("tiny.yaml"), path = dir.File("g0.ckpt");
  std::ofstream(config) << "game:\n  rules: standard\n  size: 7\nmodel:\n  blocks: 2\n"
                           "  channels: 16\n  head_channels: 8\n  value_hidden: 16\n";
  Child c(Argv({"init-model", "--config", config, "--out", path, "--seed", "1"}), dir.File("err"));
  c.CloseInput();
  c.ReadToEnd();
  EXPECT_EQ(c.Wait(), 0) << testing::ReadAll(dir.File("err"));
  return path;
}

TEST(EngineCli, ANetworkEngine) {
  TempDir dir;
  const std::string ckpt = FreshModel(dir);
  Child c(Argv({"engine", "--model", ckpt, "--simulations", "32", "--threads", "1", "--seed", "1"}),
          dir.File("err"));
  const std::string version = Ask(c, "version");
  EXPECT_NE(version.find("generation 0"), std::string::npos);
  // No path of this machine in the answer (only the file name).
  EXPECT_EQ(version.find(dir.Str()), std::string::npos) << version;
  EXPECT_NE(version.find(std::filesystem::path(ckpt).filename().string()), std::string::npos)
      << version;
  EXPECT_EQ(Ask(c, "newgame standard 9").substr(0, 2), "? ");
  EXPECT_EQ(Ask(c, "setoption threads 2"), "=\n\n");
  const Position start = Position::Initial(RuleSet::kStandard, 7);  // the checkpoint's game
  const std::string reply = Ask(c, "genmove");
  ASSERT_EQ(reply.substr(0, 2), "= ");
  EXPECT_TRUE(rules::ParseTurn(start, reply.substr(2, reply.size() - 4)).ok()) << reply;
  EXPECT_EQ(Ask(c, "quit"), "=\n\n");
  EXPECT_EQ(c.Wait(), 0);
}

struct RunResult {
  int code;
  std::string out, err;
};

RunResult RunVeletas(const TempDir& dir, const std::vector<std::string>& args) {
  Child c(args, dir.File("err"));
  c.CloseInput();
  RunResult r;
  r.out = c.ReadToEnd(120);
  r.code = c.Wait();
  r.err = testing::ReadAll(dir.File("err"));
  return r;
}

TEST(AnalyseCli, MarksAConstructedBlunderWithAFreshNetwork) {
  TempDir dir;
  const std::string ckpt = FreshModel(dir);
  const testing::BlunderRecord b = testing::FindBlunderRecord(1);
  const RunResult text = RunVeletas(dir, Argv({"analyse", "--model", ckpt, "--simulations", "100",
                                               "--seed", "1", "--threads", "1", b.record}));
  ASSERT_EQ(text.code, 0) << text.err;
  // One line per move, numbered 1..n; the last (the blunder) marked ??.
  const std::regex move_line(R"(^\s*(\d+)\s+(Black|White) \((1st|2nd)\)\s+(\S+)\s+.*$)");
  std::vector<std::string> rows;
  std::istringstream lines(text.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, move_line)) {
      EXPECT_EQ(std::stoi(m[1]), static_cast<int>(rows.size()) + 1) << line;
      rows.push_back(line);
    }
  }
  ASSERT_EQ(static_cast<int>(rows.size()), b.moves) << text.out;
  EXPECT_NE(rows.back().find(" ?? "), std::string::npos) << rows.back();

  // The same as JSON, from a file.
  std::ofstream(dir.File("game.txt")) << b.record << "\n";
  const RunResult json =
      RunVeletas(dir, Argv({"analyse", "--model", ckpt, "--simulations", "100", "--seed", "1",
                            "--threads", "1", "--json", "--file", dir.File("game.txt")}));
  ASSERT_EQ(json.code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  auto game = rules::PlayRecord(RuleSet::kStandard, 7, b.record);
  ASSERT_TRUE(game.ok());
  ASSERT_EQ(static_cast<int>(j.at("moves").size()), b.moves);
  for (int i = 0; i < b.moves; ++i) {
    const auto& m = j.at("moves")[i];
    EXPECT_EQ(m.at("number"), i + 1);
    EXPECT_EQ(m.at("move"), rules::TurnToString(game.value().before[i], game.value().turns[i]));
    EXPECT_TRUE(
        rules::ParseTurn(game.value().before[i], m.at("best_move").get<std::string>()).ok());
    EXPECT_GE(m.at("win_rate_before").get<double>(), 0.0);
    EXPECT_LE(m.at("win_rate_after").get<double>(), 1.0);
  }
  EXPECT_EQ(j.at("moves").back().at("mark"), "??");
  EXPECT_EQ(j.at("moves").back().at("win_rate_after"), 0.0);
  EXPECT_GE(j.at("summary").at(j.at("moves").back().at("player").get<std::string>()).at("blunders"),
            1);
}

TEST(AnalyseCli, BadRecordsAndOptionsExitWithTwo) {
  TempDir dir;
  const std::string ckpt = FreshModel(dir);
  RunResult r = RunVeletas(dir, Argv({"analyse", "--model", ckpt, "c3/a1 b5,c4/g6 c3-c9/c1"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("move 3 \"c3-c9/c1\""), std::string::npos) << r.err;
  r = RunVeletas(dir, Argv({"analyse", "--model", ckpt, "--size", "9", "c3/a1"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("board size mismatch: checkpoint is for 7x7, expected 9x9"),
            std::string::npos)
      << r.err;
  // No player and no network shipped for the game (an empty $VELETAS_NETWORKS): a usage error.
  setenv("VELETAS_NETWORKS", dir.File("no-networks").c_str(), 1);
  r = RunVeletas(dir, Argv({"analyse", "c3/a1"}));
  unsetenv("VELETAS_NETWORKS");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--model"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no network is shipped for standard-10x10"), std::string::npos) << r.err;
  r = RunVeletas(dir, Argv({"analyse", "--model", ckpt, "--file", dir.File("nope.txt")}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nope.txt"), std::string::npos) << r.err;
  std::ofstream(dir.File("junk.ckpt")) << "VELZCKPT and then nothing useful";
  r = RunVeletas(dir, Argv({"analyse", "--model", dir.File("junk.ckpt"), "c3/a1"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("junk.ckpt"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace veletas::play
