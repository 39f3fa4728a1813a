// The command line of the built `veletas` binary: every command answers --help with its
// options, their types, ranges and defaults; usage errors (an option out of range, a
// required option missing, an unknown option or command) exit with code 2 and name the
// option on standard error, before the command does any work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_veletas.h"

namespace veletas::cli_test {
namespace {

// The commands listed by `veletas --help` (the lines under its groups' headings, before
// "Parts of commands"), or by a command's --help (under CLI11's "Subcommands:").
std::vector<std::string> ListedCommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  bool in_list = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Parts of commands", 0) == 0) break;
    if (!line.empty() && line.back() == ':' && line[0] != ' ' && line != "Options:" &&
        line != "Positionals:") {
      in_list = true;
    } else if (in_list && line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ' &&
               line[2] != '-') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (line.empty()) {
      in_list = false;
    }
  }
  return names;
}

// The line of `help` that declares `option` (e.g. "  --games INT:INT in [1 - 100] REQUIRED").
std::string OptionLine(const std::string& help, const std::string& option) {
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    const size_t start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, option.size() + 1, option + " ") == 0) {
      return line;
    }
  }
  return "";
}

TEST(Help, EveryCommandAnswersHelp) {
  const Output top = RunVeletas({"--help"});
  ASSERT_EQ(top.code, 0) << top.err;
  const std::vector<std::string> commands = ListedCommands(top.out);
  // The commands a user of the engine reaches for, among all of them.
  for (const char* expected : {"moves", "show", "perft", "bench", "config", "play", "engine",
                               "analyse", "selfplay", "match", "gate", "ladder", "ratings",
                               "init-model", "export", "train", "pipeline", "report"}) {
    EXPECT_NE(std::find(commands.begin(), commands.end(), expected), commands.end())
        << expected << " not listed in:\n"
        << top.out;
  }
  for (const std::string& command : commands) {
    const Output help = RunVeletas({command, "--help"});
    EXPECT_EQ(help.code, 0) << command << ": " << help.err;
    EXPECT_NE(help.out.find("Usage: veletas " + command), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("-h,--help"), std::string::npos) << help.out;
    EXPECT_EQ(help.err, "") << command;
  }
  // `veletas help COMMAND` says the same.
  const Output help = RunVeletas({"help", "match"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out, RunVeletas({"match", "--help"}).out);
}

// The benchmarks are parts of one command, `veletas bench PART`: `veletas --help` and `veletas
// bench --help` list them with a summary each, every one answers --help, and none of the old
// `bench-PART` commands is left.
TEST(Help, BenchPartsAreListedAndAnswerHelp) {
  const std::vector<std::string> parts = {"clock",    "cluster",    "nn",   "search",
                                          "selfplay", "spot-check", "train"};  // sorted
  const Output top = RunVeletas({"--help"});
  ASSERT_EQ(top.code, 0) << top.err;
  const Output bench = RunVeletas({"bench", "--help"});
  ASSERT_EQ(bench.code, 0) << bench.err;
  std::vector<std::string> listed_parts = ListedCommands(bench.out);
  std::sort(listed_parts.begin(), listed_parts.end());
  EXPECT_EQ(listed_parts, parts) << bench.out;
  for (const std::string& part : parts) {
    const std::string listed = OptionLine(top.out, "bench " + part);
    EXPECT_GT(listed.size(), ("  bench " + part).size() + 10) << part << " in:\n" << top.out;
    const Output help = RunVeletas({"bench", part, "--help"});
    EXPECT_EQ(help.code, 0) << part << ": " << help.err;
    EXPECT_NE(help.out.find("Usage: veletas bench " + part), std::string::npos) << help.out;
    EXPECT_EQ(RunVeletas({"help", "bench", part}).out, help.out) << part;
    EXPECT_EQ(RunVeletas({"bench-" + part, "--help"}).code, 2) << part;
  }
}

// `veletas help` groups the commands (play and analyse first); every command is in a group.
TEST(Help, CommandsAreGroupedAndPlayComesFirst) {
  const Output top = RunVeletas({"help"});
  ASSERT_EQ(top.code, 0) << top.err;
  EXPECT_EQ(top.out, RunVeletas({"--help"}).out);
  size_t last = 0;
  for (const char* group :
       {"Play and analyse:", "Train:", "Evaluate:", "Cluster:", "Tools:", "Benchmarks:"}) {
    const size_t at = top.out.find(std::string("\n") + group + "\n");
    ASSERT_NE(at, std::string::npos) << group << " in:\n" << top.out;
    EXPECT_GT(at, last) << group;
    last = at;
  }
  const std::vector<std::string> commands = ListedCommands(top.out);
  ASSERT_FALSE(commands.empty());
  EXPECT_EQ(commands.front(), "play");
  // 21 commands, each once (a command missing from the groups would be missing here).
  EXPECT_EQ(commands.size(), 21u) << top.out;
  std::vector<std::string> sorted = commands;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

// Unknown commands and options get a suggestion.
TEST(Help, DidYouMean) {
  const Output command = RunVeletas({"plya"});
  EXPECT_EQ(command.code, 2);
  EXPECT_NE(command.err.find("unknown command \"plya\" (did you mean play?)"), std::string::npos)
      << command.err;
  const Output option = RunVeletas({"moves", "--sizee", "7"});
  EXPECT_EQ(option.code, 2);
  EXPECT_NE(option.err.find("did you mean --size for --sizee?"), std::string::npos) << option.err;
  // Option errors say what was expected.
  const Output size = RunVeletas({"moves", "--size", "7x7"});
  EXPECT_EQ(size.code, 2);
  EXPECT_NE(size.err.find("expected 7, 9 or 10 (the side of the board: 7 for 7x7), got \"7x7\""),
            std::string::npos)
      << size.err;
  // No default outside an option's own range (analyse --time had "=0" for [1, ...]).
  const Output analyse = RunVeletas({"analyse", "--help"});
  EXPECT_EQ(OptionLine(analyse.out, "--time").find("=0"), std::string::npos) << analyse.out;
  const Output far = RunVeletas({"moves", "--frobnicate"});
  EXPECT_EQ(far.code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST(Help, ShowsTypesRangesChoicesDefaultsAndRequiredOptions) {
  const Output match = RunVeletas({"match", "--help"});
  ASSERT_EQ(match.code, 0) << match.err;
  const std::string games = OptionLine(match.out, "--games");
  EXPECT_NE(games.find("INT in [1 - 10000000]"), std::string::npos) << match.out;
  EXPECT_NE(games.find("REQUIRED"), std::string::npos) << games;
  EXPECT_NE(OptionLine(match.out, "--a").find("SPEC REQUIRED"), std::string::npos) << match.out;
  EXPECT_NE(OptionLine(match.out, "--out").find("DIR=."), std::string::npos) << match.out;

  const Output bench = RunVeletas({"bench", "--help"});
  EXPECT_NE(OptionLine(bench.out, "--games").find("=2000"), std::string::npos) << bench.out;
  EXPECT_EQ(OptionLine(bench.out, "--games").find("REQUIRED"), std::string::npos) << bench.out;

  const Output moves = RunVeletas({"moves", "--help"});
  EXPECT_NE(OptionLine(moves.out, "--size").find("{7,9,10}"), std::string::npos) << moves.out;
  EXPECT_NE(OptionLine(moves.out, "--rules").find("{standard,classic}"), std::string::npos)
      << moves.out;
  EXPECT_NE(moves.out.find("RECORD"), std::string::npos) << moves.out;

  const Output nn = RunVeletas({"bench", "nn", "--help"});
  EXPECT_NE(OptionLine(nn.out, "--seconds").find("FLOAT in [0.01 - 600]=1"), std::string::npos)
      << nn.out;
  EXPECT_NE(OptionLine(nn.out, "--device").find("{cpu,cuda,auto}"), std::string::npos) << nn.out;

  const Output selfplay = RunVeletas({"selfplay", "--help"});
  EXPECT_NE(OptionLine(selfplay.out, "--config").find("FILE REQUIRED"), std::string::npos)
      << selfplay.out;
}

// The cluster's commands declare their options with CLI11 like every other command.
TEST(Help, WorkerAndClusterSubcommandsAnswerHelp) {
  const Output worker = RunVeletas({"worker", "--help"});
  ASSERT_EQ(worker.code, 0) << worker.err;
  EXPECT_NE(OptionLine(worker.out, "--redis").find("redis://HOST:PORT REQUIRED"), std::string::npos)
      << worker.out;
  EXPECT_NE(OptionLine(worker.out, "--run").find("REQUIRED"), std::string::npos) << worker.out;
  EXPECT_NE(OptionLine(worker.out, "--threads").find("INT in [1 - 1024]"), std::string::npos)
      << worker.out;
  EXPECT_NE(OptionLine(worker.out, "--device").find("{cpu,cuda,auto}"), std::string::npos)
      << worker.out;
  EXPECT_NE(OptionLine(worker.out, "--redis-auth").find("FILE"), std::string::npos) << worker.out;

  const Output cluster = RunVeletas({"cluster", "--help"});
  ASSERT_EQ(cluster.code, 0) << cluster.err;
  EXPECT_NE(cluster.out.find("status"), std::string::npos) << cluster.out;
  EXPECT_NE(cluster.out.find("audit"), std::string::npos) << cluster.out;
  const Output status = RunVeletas({"cluster", "status", "--help"});
  ASSERT_EQ(status.code, 0) << status.err;
  EXPECT_NE(status.out.find("Usage: veletas cluster status"), std::string::npos) << status.out;
  EXPECT_NE(OptionLine(status.out, "--redis").find("REQUIRED"), std::string::npos) << status.out;
  EXPECT_NE(OptionLine(status.out, "--run").find("REQUIRED"), std::string::npos) << status.out;
  const Output audit = RunVeletas({"cluster", "audit", "--help"});
  ASSERT_EQ(audit.code, 0) << audit.err;
  EXPECT_NE(audit.out.find("RUN_DIR"), std::string::npos) << audit.out;
}

struct UsageCase {
  std::vector<std::string> args;
  std::string option;  // the option the error must name
  int words = 1;       // of `args` that name the command (2 for a part: "bench nn")
};

TEST(Usage, RangeRequiredAndUnknownOptionsExitTwoNamingTheOption) {
  const std::vector<UsageCase> cases = {
      {{"match", "--a", "random", "--b", "random", "--games", "0"}, "--games"},
      {{"match", "--a", "random", "--b", "random"}, "--games"},
      {{"match", "--a", "random", "--b", "random", "--games", "2", "--colour", "black"},
       "--colour"},
      {{"perft", "--size", "7", "e3/e4"}, "--depth"},
      {{"perft", "--depth", "21", ""}, "--depth"},
      {{"moves", "--size", "8", ""}, "--size"},
      {{"moves", "--rules", "chess", ""}, "--rules"},
      {{"bench", "--games", "x"}, "--games"},
      {{"bench", "search", "--leaves", "2000"}, "--leaves", 2},
      {{"bench", "nn", "--seconds", "0"}, "--seconds", 2},
      {{"bench", "train"}, "--config", 2},
      // Checked before any file is read.
      {{"selfplay", "--config", "none.yaml", "--model", "none.ckpt", "--out", "x"}, "--games"},
      {{"train", "--config", "none.yaml", "--model", "none.ckpt", "--out", "x.ckpt"}, "--data"},
      {{"gate", "--candidate", "random", "--best", "random"}, "--run"},
      {{"ladder", "--run", "x", "--model", "random", "--size", "11"}, "--size"},
      {{"play", "--uct", "5", "--random"}, "--random"},
      {{"engine", "--simulations", "0"}, "--simulations"},
      {{"ratings"}, "RUN_DIR"},
      {{"ratings", "x", "--prior-games", "-1"}, "--prior-games"},
      {{"config"}, "--check"},
      // The cluster's commands: checked before anything connects to Redis.
      {{"worker", "--run", "r"}, "--redis"},
      {{"worker", "--redis", "redis://127.0.0.1:1"}, "--run"},
      {{"worker", "--redis", "http://127.0.0.1:1", "--run", "r"}, "--redis"},
      {{"worker", "--redis", "redis://127.0.0.1:1", "--run", "a run"}, "--run"},
      {{"worker", "--redis", "redis://127.0.0.1:1", "--run", "r", "--threads", "0"}, "--threads"},
      {{"worker", "--redis", "redis://127.0.0.1:1", "--run", "r", "--device", "tpu"}, "--device"},
      {{"cluster", "status", "--run", "r"}, "--redis"},
      {{"cluster", "audit"}, "RUN_DIR"},
      {{"cluster"}, "subcommand"},
      {{"bench", "cluster", "--config", "none.yaml"}, "--redis", 2},
      {{"bench", "cluster", "--redis", "redis://127.0.0.1:1", "--config", "none.yaml", "--games",
        "5"},
       "--games",
       2},
  };
  for (const UsageCase& c : cases) {
    std::string joined;
    for (const std::string& a : c.args) joined += " " + a;
    const std::string command = c.words == 2 ? c.args[0] + " " + c.args[1] : c.args[0];
    const Output o = RunVeletas(c.args);
    EXPECT_EQ(o.code, 2) << joined << ": " << o.err;
    EXPECT_EQ(o.out, "") << joined;
    EXPECT_EQ(o.err.rfind("veletas " + command + ": ", 0), 0u) << joined << ": " << o.err;
    EXPECT_NE(o.err.find(c.option), std::string::npos) << joined << ": " << o.err;
    EXPECT_NE(o.err.find("veletas " + command + " --help"), std::string::npos) << o.err;
  }
}

TEST(Usage, CommandsAndTheTopLevel) {
  const Output none = RunVeletas({});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("Usage: veletas"), std::string::npos) << none.err;
  const Output unknown = RunVeletas({"frobnicate", "--games", "3"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown command \"frobnicate\""), std::string::npos) << unknown.err;
  EXPECT_EQ(RunVeletas({"help", "frobnicate"}).code, 2);
  const Output help = RunVeletas({"help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out, RunVeletas({"--help"}).out);
  const Output version = RunVeletas({"--version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_FALSE(version.out.empty());
}

}  // namespace
}  // namespace veletas::cli_test

namespace veletas::cli_test {
namespace {

// The front `veletas` never loads LibTorch, oneDNN or OpenMP: the commands without a network
// start without them (the others run in veletas-full beside it).
TEST(FastStart, TheFrontLinksNoTorch) {
  const std::string command = std::string("ldd ") + VELETAS_BINARY + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string libs;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) libs += buffer;
  ASSERT_EQ(::pclose(pipe), 0) << libs;
  for (const char* heavy : {"libtorch", "libc10", "libdnnl", "libgomp", "libhiredis"}) {
    EXPECT_EQ(libs.find(heavy), std::string::npos) << heavy << " in:\n" << libs;
  }
  // The commands of veletas-full still answer through the front.
  const Output engine = RunVeletas({"engine", "--help"});
  EXPECT_EQ(engine.code, 0) << engine.err;
  EXPECT_NE(engine.out.find("Usage: veletas engine"), std::string::npos) << engine.out;
}

}  // namespace
}  // namespace veletas::cli_test
