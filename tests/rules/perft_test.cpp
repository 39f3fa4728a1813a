// Perft regression numbers from fixed positions, each cross-checked independently:
//  - depth 1 against the reference traces' legal-turn counts (independent implementations)
//    or against combinatorics;
//  - deeper counts by SlowPerft, which enumerates full turns by walking the sub-decisions
//    (TurnsBySubDecisions) and plays them one action at a time (Position::Apply) instead of
//    the fast generators (ForEachTurn, PlayTurn) that Perft uses; only for counts above a
//    million does its last level count with CountTurns, to keep the test fast.
// The frozen depth-2 and depth-3 numbers were recorded from Perft when this test was written
// (with the rules core passing every reference trace); this test recomputes each of them
// with SlowPerft, so a change in either generator shows up here.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/support/rules_helpers.h"

namespace veletas::rules {
namespace {

// Perft through the sub-decision tree only. With `fast_leaves`, the last level counts
// turns with CountTurns (used where the full slow walk would take seconds).
uint64_t SlowPerft(const Position& p, int depth, bool fast_leaves = false) {
  if (depth == 0) return 1;
  if (depth == 1 && fast_leaves) return CountTurns(p);
  const std::vector<Turn> turns = TurnsBySubDecisions(p);
  if (depth == 1) return turns.size();
  uint64_t n = 0;
  for (const Turn& t : turns) {
    Position child = p;
    for (int i = 0; i < t.length; ++i) child.Apply(t[i]);
    n += SlowPerft(child, depth - 1, fast_leaves);
  }
  return n;
}

struct Reference {
  RuleSet rules;
  int size;
  std::vector<std::string> record;
  std::map<size_t, uint64_t> counts;  // legal turns after each listed prefix
};

// The first game of a reference file.
Reference FirstGame(const std::string& file) {
  std::ifstream in(std::string(VELETAS_TEST_DATA_DIR) + "/reference/" + file);
  std::string line;
  std::getline(in, line);
  const nlohmann::json j = nlohmann::json::parse(line);
  Reference r{*ParseRuleSet(j.value("rules", "standard")),
              j.at("size").get<int>(),
              j.at("record").get<std::vector<std::string>>(),
              {}};
  for (const auto& p : j.at("positions")) {
    r.counts[p.at("prefix").get<size_t>()] = p.at("count").get<uint64_t>();
  }
  return r;
}

Position After(const Reference& r, size_t prefix) {
  std::string text;
  for (size_t i = 0; i < prefix; ++i) text += r.record[i] + " ";
  return testing::AfterRecord(r.rules, r.size, text);
}

struct Case {
  const char* file;
  size_t prefix;  // record moves played from the empty board
  uint64_t depth2;
  uint64_t depth3;  // 0: not computed (too slow for a test)
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.file << " after " << c.prefix; }

// Openings (after both setups: the positions `veletas bench` times) and later positions
// (80% into the first game of each file).
constexpr Case kCases[] = {
    {"abstractplay_traces_7.jsonl", 2, 681155, 0},
    {"abstractplay_traces_9.jsonl", 2, 7386979, 0},
    {"abstractplay_traces_10.jsonl", 2, 19717788, 0},
    {"classic_traces_7.jsonl", 2, 900422, 0},
    {"classic_traces_9.jsonl", 2, 7978212, 0},
    {"classic_traces_10.jsonl", 2, 17354455, 0},
    {"abstractplay_traces_7.jsonl", 27, 1251, 37028},
    {"abstractplay_traces_9.jsonl", 33, 27898, 3642956},
    {"abstractplay_traces_10.jsonl", 59, 2986, 127990},
    {"classic_traces_7.jsonl", 30, 561, 9029},
    {"classic_traces_9.jsonl", 35, 4436, 243506},
    {"classic_traces_10.jsonl", 55, 5430, 352460},
};

class PerftCases : public ::testing::TestWithParam<Case> {};

std::string CaseName(const ::testing::TestParamInfo<Case>& param) {
  std::string file = param.param.file;
  return file.substr(0, file.find('.')) + "_after" + std::to_string(param.param.prefix);
}

INSTANTIATE_TEST_SUITE_P(Positions, PerftCases, ::testing::ValuesIn(kCases), CaseName);

TEST_P(PerftCases, MatchesReferenceAndSubDecisionWalk) {
  const Case c = GetParam();
  const Reference ref = FirstGame(c.file);
  const Position p = After(ref, c.prefix);
  ASSERT_EQ(p.Pending(), Decision::kChooseShooter);
  ASSERT_TRUE(ref.counts.count(c.prefix));
  EXPECT_EQ(Perft(p, 0), 1u);
  EXPECT_EQ(Perft(p, 1), ref.counts.at(c.prefix));  // the reference implementation's count
  EXPECT_EQ(Perft(p, 2), c.depth2);
  // Counts up to a million are walked fully through the sub-decisions; larger ones (the
  // 9x9 and 10x10 openings, one depth-3 count) would take seconds that way, so their last
  // level counts with CountTurns (itself checked against TurnsBySubDecisions in
  // property_test.cpp and against the reference counts in reference_test.cpp).
  EXPECT_EQ(SlowPerft(p, 2, c.depth2 > 1000000), c.depth2);
  if (c.depth3 != 0) {
    EXPECT_EQ(Perft(p, 3), c.depth3);
    EXPECT_EQ(SlowPerft(p, 3, c.depth3 > 1000000), c.depth3);
  }
}

// From the empty board, through the setup and the pie rule.
TEST(PerftSetup, StandardSevenByDerivedFromTheRules) {
  const Position start = Position::Initial(RuleSet::kStandard, 7);
  // Black: 25 interior squares for the shooter, 48 squares for the stone.
  EXPECT_EQ(Perft(start, 1), 25u * 48u);
  // White: swap, or 2 of the interior squares left (23 if Black's stone is inside, 24 if
  // on the perimeter; 24 stone squares each way) and a stone on one of 45 squares.
  EXPECT_EQ(Perft(start, 2), 25u * (24u * (1 + 253u * 45u) + 24u * (1 + 276u * 45u)));
  EXPECT_EQ(Perft(start, 2), 14284200u);
  EXPECT_EQ(Perft(Position::Initial(RuleSet::kStandard, 9), 1), 1176u * 79u);  // C(49,2)*79
}

TEST(PerftSetup, ClassicSevenBySevenByBruteForce) {
  const Position start = Position::Initial(RuleSet::kClassic, 7);
  EXPECT_EQ(Perft(start, 1), 49u);
  // White places 2 shooters, not touching each other nor Black's: count the pairs.
  auto touch = [](int a, int b) {
    return std::abs(a / 7 - b / 7) <= 1 && std::abs(a % 7 - b % 7) <= 1;
  };
  uint64_t pairs = 0;
  for (int b = 0; b < 49; ++b) {
    for (int w1 = 0; w1 < 49; ++w1) {
      for (int w2 = w1 + 1; w2 < 49; ++w2) {
        pairs += !touch(b, w1) && !touch(b, w2) && !touch(w1, w2);
      }
    }
  }
  EXPECT_EQ(Perft(start, 2), pairs);
  EXPECT_EQ(SlowPerft(start, 2), pairs);
  // Depth 3 adds Black's first play turn: regression value recorded from Perft, cross-checked
  // through the sub-decision walk for the setups (leaves by CountTurns).
  EXPECT_EQ(Perft(start, 3), 35651136u);
  EXPECT_EQ(SlowPerft(start, 3, /*fast_leaves=*/true), 35651136u);
}

TEST(PerftEdgeCases, TerminalPositionsHaveNoContinuations) {
  const Reference ref = FirstGame("classic_traces_7.jsonl");
  const Position over = After(ref, ref.record.size());
  ASSERT_TRUE(over.IsTerminal());
  EXPECT_EQ(Perft(over, 0), 1u);
  EXPECT_EQ(Perft(over, 1), 0u);
  EXPECT_EQ(Perft(over, 3), 0u);
  // One move before the end: sequences through a winning turn stop there and count nothing
  // at depth 2.
  const Position before = After(ref, ref.record.size() - 1);
  uint64_t expected = 0;
  for (const Turn& t : TurnsBySubDecisions(before)) {
    Position child = before;
    for (int i = 0; i < t.length; ++i) child.Apply(t[i]);
    expected += child.IsTerminal() ? 0 : TurnsBySubDecisions(child).size();
  }
  EXPECT_EQ(Perft(before, 2), expected);
}

}  // namespace
}  // namespace veletas::rules
