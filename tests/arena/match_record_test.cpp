// Match records on disk: JSON round trip, validation, and loading a run's matches with
// corrupt files reported and skipped.
#include "arena/match_record.h"
#include "tests/support/files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "util/atomic_file.h"

namespace veletas::arena {
namespace {

namespace fs = std::filesystem;

class MatchRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() /
            ("veletas_match_test_" +
             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A 60-40 match between gen_3 and gen_2, colours alternating.
  static MatchRecord Sample(const std::string& name) {
    MatchRecord m;
    m.name = name;
    m.rules = rules::RuleSet::kStandard;
    m.size = 10;
    m.a = {"gen_3", "mcts:gen_3:64"};
    m.b = {"gen_2", "mcts:gen_2:64"};
    m.started = "2024-05-01T10:00:00Z";
    for (int i = 0; i < 100; ++i) {
      MatchGame g;
      g.a_first = i % 2 == 0;
      if (i % 3 != 0) g.a_colour = i % 2 == 0 ? rules::Color::kBlack : rules::Color::kWhite;
      g.a_won = i < 60;
      g.turns = 30 + i;
      if (i % 5 != 0) g.record = "records/" + name + "/" + std::to_string(i) + ".txt";
      m.games.push_back(g);
    }
    return m;
  }

  void WriteRaw(const std::string& file, const std::string& text) {
    fs::create_directories(MatchesDir(dir_));
    std::ofstream(fs::path(MatchesDir(dir_)) / file) << text;
  }

  std::string dir_;
};

TEST_F(MatchRecordTest, RoundTripThroughTheRunDirectory) {
  MatchRecord m = Sample("gen_3-vs-gen_2");
  GateConfig gate;
  gate.method = GateMethod::kFixedGames;
  gate.games = 100;
  gate.threshold = 0.55;
  m.gate = EvaluateGate(gate, m.AWins(), m.BWins());
  ASSERT_EQ(test_support::ErrorText(WriteMatchRecord(dir_, m)), "");
  const std::string path = MatchFilePath(dir_, m.name);
  ASSERT_TRUE(fs::exists(path));
  EXPECT_EQ(fs::path(path).filename(), "gen_3-vs-gen_2.json");

  // The summary in the file: 60-40 -> Elo 400 log10(1.5) = 70.44, Wilson CI [1.39, 139.48].
  std::string text;
  ASSERT_TRUE(test_support::ReadInto(path, text));
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j.at("games"), 100);
  EXPECT_EQ(j.at("a_wins"), 60);
  EXPECT_EQ(j.at("b_wins"), 40);
  EXPECT_NEAR(j.at("elo").get<double>(), 70.44, 0.006);
  EXPECT_NEAR(j.at("elo_ci95")[0].get<double>(), 1.39, 0.006);
  EXPECT_NEAR(j.at("elo_ci95")[1].get<double>(), 139.48, 0.006);
  EXPECT_EQ(j.at("players").at("a").at("spec"), "mcts:gen_3:64");
  EXPECT_EQ(j.at("results")[1].at("a_seat"), "second");
  EXPECT_EQ(j.at("gate").at("decision"), "promote");

  const RunMatches run = LoadRunMatches(dir_);
  EXPECT_TRUE(run.dir_exists);
  EXPECT_TRUE(run.skipped.empty());
  ASSERT_EQ(run.matches.size(), 1u);
  const MatchRecord& r = run.matches[0];
  EXPECT_EQ(r.name, m.name);
  EXPECT_EQ(r.rules, m.rules);
  EXPECT_EQ(r.size, m.size);
  EXPECT_EQ(r.a.name, "gen_3");
  EXPECT_EQ(r.b.spec, "mcts:gen_2:64");
  EXPECT_EQ(r.started, m.started);
  EXPECT_EQ(r.finished, "");
  ASSERT_EQ(r.games.size(), m.games.size());
  for (size_t i = 0; i < m.games.size(); ++i) {
    EXPECT_EQ(r.games[i].a_first, m.games[i].a_first) << i;
    EXPECT_EQ(r.games[i].a_colour, m.games[i].a_colour) << i;
    EXPECT_EQ(r.games[i].a_won, m.games[i].a_won) << i;
    EXPECT_EQ(r.games[i].turns, m.games[i].turns) << i;
    EXPECT_EQ(r.games[i].record, m.games[i].record) << i;
  }
  ASSERT_TRUE(r.gate.has_value());
  EXPECT_EQ(r.gate->decision, GateDecision::kPromote);
  EXPECT_EQ(r.gate->reason, m.gate->reason);
  const std::vector<PairResult> pairs = PairResults(run.matches);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].a_wins, 60);
  EXPECT_EQ(pairs[0].b_wins, 40);
}

TEST_F(MatchRecordTest, CorruptFilesAreReportedAndSkipped) {
  ASSERT_EQ(test_support::ErrorText(WriteMatchRecord(dir_, Sample("good"))), "");
  std::string good;
  ASSERT_TRUE(test_support::ReadInto(MatchFilePath(dir_, "good"), good));
  WriteRaw("truncated.json", good.substr(0, good.size() / 2));
  WriteRaw("empty.json", "");
  nlohmann::json j = nlohmann::json::parse(good);
  j["name"] = "wrong_count";
  j["a_wins"] = 61;
  j["b_wins"] = 39;
  WriteRaw("wrong_count.json", j.dump());
  j = nlohmann::json::parse(good);
  j["name"] = "bad_winner";
  j["results"][7]["winner"] = "c";
  WriteRaw("bad_winner.json", j.dump());
  j = nlohmann::json::parse(good);
  j["name"] = "someone_else";
  WriteRaw("renamed.json", j.dump());
  // Not matches: a temporary file of an unfinished atomic write and other files.
  WriteRaw("pending.json.tmp.1234", good.substr(0, 10));
  WriteRaw("notes.txt", "hello");

  const RunMatches run = LoadRunMatches(dir_);
  ASSERT_EQ(run.matches.size(), 1u);
  EXPECT_EQ(run.matches[0].name, "good");
  ASSERT_EQ(run.skipped.size(), 5u);
  auto skipped = [&](const std::string& file, const std::string& what) {
    for (const std::string& s : run.skipped) {
      if (s.rfind(MatchFilePath(dir_, file), 0) == 0 && s.find(what) != std::string::npos)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(skipped("truncated", "not valid JSON")) << ::testing::PrintToString(run.skipped);
  EXPECT_TRUE(skipped("empty", "empty file")) << ::testing::PrintToString(run.skipped);
  EXPECT_TRUE(skipped("wrong_count", "a_wins: 61, but A won 60"))
      << ::testing::PrintToString(run.skipped);
  EXPECT_TRUE(skipped("bad_winner", "results[7].winner")) << ::testing::PrintToString(run.skipped);
  EXPECT_TRUE(skipped("renamed", "does not match the file name"))
      << ::testing::PrintToString(run.skipped);
}

TEST_F(MatchRecordTest, FieldValidation) {
  const nlohmann::json good = MatchRecordToJson(Sample("m"));
  ASSERT_TRUE(MatchRecordFromJson(good, "m.json"));
  auto expect_error = [&](nlohmann::json j, const std::string& what) {
    auto r = MatchRecordFromJson(j, "m.json");
    ASSERT_FALSE(r) << what;
    EXPECT_NE(r.error().find(what), std::string::npos) << r.error();
    EXPECT_EQ(r.error().rfind("m.json: ", 0), 0u) << r.error();
  };
  nlohmann::json j = good;
  j["version"] = 2;
  expect_error(j, "version: 2 is not supported");
  j = good;
  j["format"] = "something";
  expect_error(j, "format");
  j = good;
  j.erase("players");
  expect_error(j, "players: missing");
  j = good;
  j["players"]["b"]["name"] = "gen_3";
  expect_error(j, "both \"gen_3\"");
  j = good;
  j["size"] = 8;
  expect_error(j, "size");
  j = good;
  j["rules"] = "chess";
  expect_error(j, "rules");
  j = good;
  j["results"][0]["turns"] = -1;
  expect_error(j, "results[0].turns");
  j = good;
  j["results"][0]["a_colour"] = "green";
  expect_error(j, "results[0].a_colour");
  j = good;
  j["results"].erase(j["results"].begin());
  expect_error(j, "99 games listed, but games is 100");
  j = good;
  j["games"] = "100";
  expect_error(j, "games: expected an integer");
}

TEST_F(MatchRecordTest, NamesAndMissingDirectory) {
  EXPECT_TRUE(ValidateMatchName("gen_3-vs-random.r2").ok());
  for (const char* bad : {"", "../escape", "a b", ".hidden"}) {
    const util::Status s = ValidateMatchName(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.error().find("match name"), std::string::npos) << s.error();
    EXPECT_EQ(s.exit_code(), 2);
  }
  EXPECT_FALSE(WriteMatchRecord(dir_, Sample("bad/name")).ok());
  const RunMatches run = LoadRunMatches(dir_);
  EXPECT_FALSE(run.dir_exists);
  EXPECT_TRUE(run.matches.empty());
}

// Defect 1 of issue 13 at the reader: a 200 KB record nesting 100,000 arrays is skipped with
// an error naming the file (it used to overflow the stack), and a long value quoted in an
// error stays short.
TEST_F(MatchRecordTest, DeepOrHugeValuesGiveShortErrorsNamingTheFile) {
  WriteRaw("x.json", "{\"format\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  const RunMatches run = LoadRunMatches(dir_);
  ASSERT_EQ(run.skipped.size(), 1u);
  EXPECT_EQ(run.skipped[0], MatchFilePath(dir_, "x") +
                                ": arrays and objects nest deeper than 64 levels (at byte 74)");
  nlohmann::json j = MatchRecordToJson(Sample("long"));
  j["format"] = nlohmann::json::array();
  for (int i = 0; i < 50; ++i) j["format"].push_back(std::string(1000, 'x'));
  const auto bad = MatchRecordFromJson(j, "long.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "long.json: format: expected a string, got an array of 50 elements");
}

}  // namespace
}  // namespace veletas::arena
