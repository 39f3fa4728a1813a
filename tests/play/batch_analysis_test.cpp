// Batch analysis: JSON lines in, one answer or error per query (by id, in any order), legal
// candidates, bad queries answered with the key and what was expected, and the searches of
// several positions evaluated in shared batches.
#include "play/batch_analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "search/search_config.h"
#include "tests/play/test_util.h"

namespace veletas::play {
namespace {

// HashEvaluator's outputs, recording the largest batch it was given.
class CountingEvaluator : public search::Evaluator {
 public:
  void Evaluate(std::span<const rules::Position> positions,
                std::span<search::EvalOutput> out) override {
    largest = std::max(largest, positions.size());
    ++calls;
    inner.Evaluate(positions, out);
  }
  search::HashEvaluator inner{3};
  size_t largest = 0;
  int calls = 0;
};

class Batch : public ::testing::Test {
 protected:
  Batch() {
    config_ = search::ForPlay(search::SearchConfig{});
    setup_.rules = rules::RuleSet::kStandard;
    setup_.size = 7;
    setup_.fixed_game = true;
    setup_.visits = 40;
    setup_.candidates = 3;
    setup_.parallel = 4;
    setup_.make_searcher = [this](int slot) {
      return TurnSearcher::Neural(eval_, config_, 10 + static_cast<uint64_t>(slot));
    };
  }
  // The answers by id (as JSON text).
  std::map<std::string, nlohmann::json> Analyse(const std::vector<std::string>& lines,
                                                int* errors) {
    std::ostringstream out;
    *errors = AnalyseBatch(setup_, lines, out);
    std::map<std::string, nlohmann::json> by_id;
    int nulls = 0;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      std::string id = j.at("id").dump();
      if (id == "null") id += std::to_string(nulls++);  // lines without an id
      EXPECT_TRUE(by_id.emplace(id, j).second) << "answered twice: " << line;
    }
    return by_id;
  }

  CountingEvaluator eval_;
  search::SearchConfig config_;
  BatchSetup setup_;
};

TEST_F(Batch, AnswersEveryQueryWithLegalCandidatesInSharedBatches) {
  const auto g = testing::PlayRandomGame(rules::RuleSet::kStandard, 7, 5);
  std::vector<std::string> lines;
  for (int n = 0; n < 6; ++n) {
    lines.push_back(R"({"id": )" + std::to_string(n) + R"(, "moves": ")" +
                    testing::RecordPrefix(g, n) + "\"}");
  }
  lines.push_back("");  // blank lines are skipped
  lines.push_back(R"({"id": "arr", "moves": [")" + testing::RecordPrefix(g, 1) +
                  R"("], "visits": 20, "candidates": 1})");
  int errors = -1;
  const auto answers = Analyse(lines, &errors);
  EXPECT_EQ(errors, 0);
  ASSERT_EQ(answers.size(), 7u);
  for (int n = 0; n < 6; ++n) {
    const nlohmann::json& a = answers.at(std::to_string(n));
    EXPECT_EQ(a.at("turns"), n);
    const rules::Position pos = g.before[static_cast<size_t>(n)];
    EXPECT_EQ(a.at("to_move"), pos.ToMove() == rules::Color::kBlack ? "black" : "white");
    ASSERT_GE(a.at("candidates").size(), 1u);
    EXPECT_LE(a.at("candidates").size(), 3u);
    for (const auto& c : a.at("candidates")) {
      EXPECT_TRUE(rules::ParseTurn(pos, c.at("move").get<std::string>()).ok()) << c;
      EXPECT_LE(c.at("lcb").get<double>(), c.at("winrate").get<double>()) << c;
      // Rounded to four decimals.
      const double w = c.at("winrate").get<double>() * 1e4;
      EXPECT_NEAR(w, std::round(w), 1e-6) << c;
      EXPECT_EQ(c.at("pv").at(0), c.at("move"));
    }
  }
  EXPECT_EQ(answers.at("\"arr\"").at("candidates").size(), 1u);
  // Four searches at once: batches larger than one search's leaves.
  EXPECT_GT(eval_.largest, static_cast<size_t>(config_.leaves_per_batch));
}

TEST_F(Batch, BadQueriesAreAnsweredWithWhatWasExpected) {
  const std::vector<std::string> lines = {
      "not json",
      R"({"id": 1})",
      R"({"id": 2, "moves": "c3-c9/c1"})",
      R"({"id": 3, "moves": "", "size": 9})",
      R"({"id": 4, "moves": "", "visits": 0})",
      R"({"id": 5, "moves": "", "colour": "black"})",
      R"({"id": 6, "moves": [7]})",
      R"([1, 2])",
      R"({"id": 7, "moves": ""})",
  };
  int errors = -1;
  const auto answers = Analyse(lines, &errors);
  EXPECT_EQ(errors, 8);
  ASSERT_EQ(answers.size(), 9u);
  EXPECT_NE(answers.at("null0").at("error").get<std::string>().find("query"), std::string::npos);
  auto error = [&](const std::string& id) {
    return answers.at(id).value("error", std::string("(no error)"));
  };
  EXPECT_NE(error("1").find("moves: missing"), std::string::npos) << error("1");
  EXPECT_NE(error("2").find("move 1"), std::string::npos) << error("2");
  EXPECT_NE(error("3").find("standard 7x7 only"), std::string::npos) << error("3");
  EXPECT_NE(error("4").find("visits: 0 is out of range [1, 100000000]"), std::string::npos)
      << error("4");
  EXPECT_NE(error("5").find("unknown key \"colour\""), std::string::npos) << error("5");
  EXPECT_NE(error("6").find("moves[0]: expected a move"), std::string::npos) << error("6");
  EXPECT_EQ(answers.at("1").at("line"), 2);
  EXPECT_EQ(answers.at("7").at("turns"), 0);
}

TEST_F(Batch, ServeReadsLinesWhileSearching) {
  std::istringstream in(
      "{\"id\": \"a\", \"moves\": \"\"}\n\n{\"id\": \"b\", \"moves\": \"c3/a1\"}\n");
  std::ostringstream out;
  const auto errors = ServeBatchAnalysis(setup_, in, out);
  ASSERT_TRUE(errors.ok()) << errors.error();
  EXPECT_EQ(errors.value(), 0);
  std::istringstream lines(out.str());
  std::vector<std::string> ids;
  for (std::string line; std::getline(lines, line);) {
    ids.push_back(nlohmann::json::parse(line).at("id").get<std::string>());
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace veletas::play
