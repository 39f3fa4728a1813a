// Replays every game of tests/fixtures/reference/*.jsonl (format: end of docs/RULES.md): the
// standard games come from AbstractPlay's implementation, the classic ones from a second,
// plain implementation. At every listed position the number of legal turns, the SHA-256
// prefix of their sorted notation and (where given) the full list must match, as must every
// claim, the scores and the winner.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/turns.h"
#include "tests/support/rules_helpers.h"
#include "util/sha256.h"

namespace veletas::rules {
namespace {

using nlohmann::json;

const char* const kFiles[] = {
    "abstractplay_traces_7.jsonl", "abstractplay_traces_9.jsonl", "abstractplay_traces_10.jsonl",
    "classic_traces_7.jsonl",      "classic_traces_9.jsonl",      "classic_traces_10.jsonl",
};

std::vector<json> ReadGames(const std::string& name) {
  const std::string path = std::string(VELETAS_TEST_DATA_DIR) + "/reference/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<json> games;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) games.push_back(json::parse(line));
  }
  return games;
}

std::string JoinedTurns(const std::vector<std::string>& turns) {
  std::string joined;
  for (size_t i = 0; i < turns.size(); ++i) joined += (i ? "\n" : "") + turns[i];
  return joined;
}

Color WhoColor(int who) { return who == 1 ? Color::kBlack : Color::kWhite; }

class ReferenceTraces : public ::testing::TestWithParam<const char*> {};

std::string FileName(const ::testing::TestParamInfo<const char*>& param) {
  std::string name = param.param;
  name = name.substr(0, name.find('.'));
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, ReferenceTraces, ::testing::ValuesIn(kFiles), FileName);

TEST_P(ReferenceTraces, EveryPositionClaimAndWinnerMatches) {
  const std::vector<json> games = ReadGames(GetParam());
  ASSERT_GE(games.size(), 5u);
  int positions_checked = 0, lists_checked = 0, claims_checked = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    const json& game = games[g];
    SCOPED_TRACE("game " + std::to_string(g + 1) + " of " + GetParam());
    const std::optional<RuleSet> rs = ParseRuleSet(game.value("rules", "standard"));
    ASSERT_TRUE(rs);
    const int size = game.at("size").get<int>();
    const std::vector<std::string> record = game.at("record").get<std::vector<std::string>>();

    // The positions after each prefix of the record.
    std::vector<Position> after = {Position::Initial(*rs, size)};
    for (size_t i = 0; i < record.size(); ++i) {
      ASSERT_FALSE(after.back().IsTerminal()) << "game over before move " << i + 1;
      const util::Result<Turn> turn = ParseTurn(after.back(), record[i]);
      ASSERT_TRUE(turn.ok()) << "move " << i + 1 << " " << record[i] << ": " << turn.error();
      EXPECT_EQ(TurnToString(after.back(), turn.value()), record[i]);
      Position next = after.back();
      ApplyTurn(next, turn.value());
      after.push_back(next);
    }
    std::string text;
    for (const std::string& m : record) text += m + " ";
    const util::Result<Game> replay = PlayRecord(*rs, size, text);
    ASSERT_TRUE(replay.ok()) << replay.error();
    EXPECT_EQ(replay.value().final, after.back());

    for (const json& entry : game.at("positions")) {
      const size_t prefix = entry.at("prefix").get<size_t>();
      ASSERT_LT(prefix, after.size());
      const Position& pos = after[prefix];
      SCOPED_TRACE("prefix " + std::to_string(prefix));
      const std::vector<std::string> turns = testing::TurnStrings(pos);
      EXPECT_EQ(CountTurns(pos), entry.at("count").get<uint64_t>());
      EXPECT_EQ(turns.size(), entry.at("count").get<uint64_t>());
      EXPECT_EQ(util::Sha256Hex(JoinedTurns(turns)).substr(0, 16),
                entry.at("sha").get<std::string>());
      if (entry.contains("moves")) {
        EXPECT_EQ(turns, entry.at("moves").get<std::vector<std::string>>());
        ++lists_checked;
      }
      ++positions_checked;
    }

    // Claims: each listed claim is new after its prefix, and nothing else is ever claimed.
    Bitboard listed[2];
    for (const json& step : game.at("claims")) {
      const size_t prefix = step.at("after").get<size_t>();
      ASSERT_GE(prefix, 1u);
      ASSERT_LT(prefix, after.size());
      for (const json& claim : step.at("claims")) {
        const int sq = testing::Sq(size, claim.at("where").get<std::string>());
        const Color who = WhoColor(claim.at("who").get<int>());
        EXPECT_TRUE(after[prefix].Claimed(who).Test(sq))
            << claim.dump() << " after " << prefix << "\n"
            << Diagram(after[prefix]);
        const Position& before = after[prefix - 1];
        EXPECT_FALSE((before.Claimed(Color::kBlack) | before.Claimed(Color::kWhite)).Test(sq))
            << claim.dump();
        listed[Index(who)].Set(sq);
        ++claims_checked;
      }
    }
    for (Color c : {Color::kBlack, Color::kWhite}) {
      EXPECT_EQ(after.back().Claimed(c), listed[Index(c)]) << ColorName(c);
    }
    const std::vector<int> winner = game.at("winner").get<std::vector<int>>();
    ASSERT_EQ(winner.size(), 1u);
    EXPECT_TRUE(after.back().IsTerminal());
    EXPECT_EQ(after.back().Winner(), WhoColor(winner[0]));
    if (game.contains("scores")) {
      const std::vector<int> scores = game.at("scores").get<std::vector<int>>();
      EXPECT_EQ(scores, (std::vector<int>{after.back().ClaimCount(Color::kBlack),
                                          after.back().ClaimCount(Color::kWhite)}));
    }
  }
  EXPECT_GT(positions_checked, 100);
  EXPECT_GT(lists_checked, 10);
  EXPECT_GT(claims_checked, 5);
}

// The listed full move lists also agree with the turns found by walking the sub-decisions.
TEST_P(ReferenceTraces, MoveListsEqualSubDecisionPaths) {
  for (const json& game : ReadGames(GetParam())) {
    const RuleSet rs = *ParseRuleSet(game.value("rules", "standard"));
    const std::vector<std::string> record = game.at("record").get<std::vector<std::string>>();
    for (const json& entry : game.at("positions")) {
      if (!entry.contains("moves")) continue;
      const size_t prefix = entry.at("prefix").get<size_t>();
      std::string text;
      for (size_t i = 0; i < prefix; ++i) text += record[i] + " ";
      const Position pos = testing::AfterRecord(rs, game.at("size").get<int>(), text);
      std::vector<std::string> turns;
      for (const Turn& t : TurnsBySubDecisions(pos)) turns.push_back(TurnToString(pos, t));
      std::sort(turns.begin(), turns.end());
      EXPECT_EQ(turns, entry.at("moves").get<std::vector<std::string>>());
    }
  }
}

}  // namespace
}  // namespace veletas::rules
