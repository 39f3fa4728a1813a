// The rules commands of the built `veletas` binary (path from the build: VELETAS_BINARY):
// `moves` (list, --count, record from standard input, illegal record), `show --json` and
// `perft --depth`, compared with the rules library called directly.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "rules/bench.h"
#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/cli/run_veletas.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

using cli_test::Output;
using cli_test::RunVeletas;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

constexpr const char* kOpening = "e3/e4 b4,b6/a4 b4-e1/f1";

TEST(RulesCli, MovesPrintsTheSortedLegalTurns) {
  const Output o = RunVeletas({"moves", "--size", "7", kOpening});
  ASSERT_EQ(o.code, 0) << o.err;
  const std::vector<std::string> lines = Lines(o.out);
  EXPECT_EQ(lines, testing::TurnStrings(testing::AfterRecord(RuleSet::kStandard, 7, kOpening)));
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  EXPECT_GT(lines.size(), 100u);
  // A setup position of the classic rules: Black's 49 single-shooter setups.
  const Output setup = RunVeletas({"moves", "--rules", "classic", "--size", "7", ""});
  ASSERT_EQ(setup.code, 0) << setup.err;
  EXPECT_EQ(Lines(setup.out).size(), 49u);
  EXPECT_EQ(Lines(setup.out).front(), "a1");
}

TEST(RulesCli, MovesCountPrintsTheNumber) {
  const Output o = RunVeletas({"moves", "--size", "7", "--count", kOpening});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(
      o.out,
      std::to_string(CountTurns(testing::AfterRecord(RuleSet::kStandard, 7, kOpening))) + "\n");
  // The reference count after the first two moves of the first 7x7 trace (e3/e4 b4,b6/a4).
  EXPECT_EQ(RunVeletas({"moves", "--size", "7", "--count", "e3/e4 b4,b6/a4"}).out, "870\n");
}

TEST(RulesCli, RecordFromStandardInput) {
  const Output from_arg = RunVeletas({"moves", "--size", "7", kOpening});
  const Output from_stdin = RunVeletas({"moves", "--size", "7"}, std::string(kOpening) + "\n");
  ASSERT_EQ(from_stdin.code, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, from_arg.out);
  // Records may span lines.
  EXPECT_EQ(RunVeletas({"moves", "--size", "7"}, "e3/e4\nb4,b6/a4\n  b4-e1/f1\n").out,
            from_arg.out);
}

TEST(RulesCli, IllegalRecordExitsWithCodeTwoAndTheErrorOnStderr) {
  const std::string record = "e3/e4 b4,b6/a4 b4-e7/f1";
  const Output o = RunVeletas({"moves", "--size", "7", record});
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.out, "");
  const std::string error = PlayRecord(RuleSet::kStandard, 7, record).error();
  EXPECT_EQ(error.rfind("move 3 \"b4-e7/f1\": ", 0), 0u) << error;
  EXPECT_EQ(o.err, "veletas moves: " + error + "\n");
  const Output stdin_bad = RunVeletas({"show", "--size", "7"}, "e3/e4 swap swap");
  EXPECT_EQ(stdin_bad.code, 2);
  EXPECT_NE(stdin_bad.err.find("move 3 \"swap\""), std::string::npos) << stdin_bad.err;
  // Bad usage is exit code 2 as well.
  EXPECT_EQ(RunVeletas({"moves", "--size", "8", ""}).code, 2);
  EXPECT_EQ(RunVeletas({"moves", "--bogus", ""}).code, 2);
  EXPECT_EQ(RunVeletas({"perft", "--size", "7", kOpening}).code, 2);  // --depth is required
  EXPECT_EQ(RunVeletas({"perft", "--size", "7", "--depth", "x", kOpening}).code, 2);
}

TEST(RulesCli, ShowJsonDescribesThePosition) {
  const Output o = RunVeletas({"show", "--json", "--size", "7", kOpening});
  ASSERT_EQ(o.code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  for (const char* key : {"size", "to_move", "claimed", "winner", "board"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.at("size"), 7);
  EXPECT_EQ(j.at("to_move"), "white");
  EXPECT_EQ(j.at("claimed").at("black"), 0);
  EXPECT_EQ(j.at("claimed").at("white"), 0);
  EXPECT_TRUE(j.at("winner").is_null());
  // The board, top row (rank 7) first, from the record itself: Black's shooter e3 and stone
  // e4, White's shooters b4 b6 and stone a4, then b4 moved to e1 and shot f1.
  const std::vector<std::string> board = {
      ".......",  // 7
      ".S.....",  // 6
      ".......",  // 5
      "o...x..",  // 4
      "....S..",  // 3
      ".......",  // 2
      "....Sx.",  // 1
  };
  EXPECT_EQ(j.at("board").get<std::vector<std::string>>(), board);

  // A finished reference game (first 9x9 trace: White wins with scores 1 to 3).
  std::ifstream in(std::string(VELETAS_TEST_DATA_DIR) + "/reference/abstractplay_traces_9.jsonl");
  std::string line;
  std::getline(in, line);
  const nlohmann::json game = nlohmann::json::parse(line);
  std::string record;
  for (const std::string& m : game.at("record").get<std::vector<std::string>>()) record += m + " ";
  const Output done = RunVeletas({"show", "--json", "--size", "9"}, record);
  ASSERT_EQ(done.code, 0) << done.err;
  const nlohmann::json d = nlohmann::json::parse(done.out);
  EXPECT_EQ(d.at("winner"), game.at("winner").at(0) == 1 ? "black" : "white");
  EXPECT_EQ(d.at("claimed").at("black"), game.at("scores").at(0));
  EXPECT_EQ(d.at("claimed").at("white"), game.at("scores").at(1));
  EXPECT_EQ(d.at("board").size(), 9u);
}

TEST(RulesCli, PerftPrintsTheCount) {
  const Output o = RunVeletas({"perft", "--size", "7", "--depth", "2", "e3/e4 b4,b6/a4"});
  ASSERT_EQ(o.code, 0) << o.err;
  const Position p = testing::AfterRecord(RuleSet::kStandard, 7, "e3/e4 b4,b6/a4");
  ASSERT_FALSE(Lines(o.out).empty());
  EXPECT_EQ(Lines(o.out)[0], "perft(2) = " + std::to_string(Perft(p, 2)));
  const Output classic =
      RunVeletas({"perft", "--rules", "classic", "--size", "7", "--depth", "1"}, "c7 a4,g1");
  ASSERT_EQ(classic.code, 0) << classic.err;
  EXPECT_EQ(Lines(classic.out)[0], "perft(1) = 1019");  // the classic reference count
}

TEST(RulesCli, BenchPrintsTheRulesLayersSignature) {
  // The signature itself is pinned in rules_tests (Bench.TheSignatureIsPinned).
  const Output o = RunVeletas({"bench", "--games", "3"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto signature = BenchSignature(3);
  ASSERT_TRUE(signature.ok()) << signature.error();
  ASSERT_FALSE(Lines(o.out).empty());
  EXPECT_EQ(Lines(o.out).back(), "bench signature: " + std::to_string(signature.value()));
}

}  // namespace
}  // namespace veletas::rules
