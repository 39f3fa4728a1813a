// The arena commands' players from their options (arena/player_options.h) over a source of
// fake networks (the networks themselves are model/'s), and the lock of a run directory.
#include "arena/player_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "arena/match_record.h"
#include "search/fake_evaluators.h"
#include "tests/support/temp_dir.h"

namespace veletas::arena {
namespace {

// Checkpoints named "gN.ckpt" are networks of generation N (one evaluator each, whatever the
// precision); any other name is missing.
class FakeNetworks {
 public:
  NetworkSource Source() {
    return [this](const std::string& ckpt,
                  const std::string& precision) -> util::Result<PlayerNetwork> {
      asked.push_back(ckpt + "/" + precision);
      if (ckpt.size() < 7 || ckpt[0] != 'g') return util::Error{ckpt + ": no such file"};
      return PlayerNetwork{std::stoll(ckpt.substr(1)), &evaluators_[ckpt]};
    };
  }
  search::Evaluator* Of(const std::string& ckpt) { return &evaluators_[ckpt]; }
  std::vector<std::string> asked;

 private:
  std::map<std::string, search::HashEvaluator> evaluators_;
};

TEST(PlayerOptions, ACheckpointPlaysAsMctsNamedAfterItsGeneration) {
  FakeNetworks networks;
  auto p = PlayerOption("model", "g12.ckpt", 64, networks.Source(), search::SearchConfig{});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p.value().name, "gen_12");
  EXPECT_EQ(p.value().spec.kind, PlayerKind::kMcts);
  EXPECT_EQ(p.value().spec.budget, 64);
  EXPECT_EQ(p.value().evaluator, networks.Of("g12.ckpt"));
  auto spec = PlayerOption("best", "uct:300", 64, networks.Source(), search::SearchConfig{});
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_EQ(spec.value().spec.kind, PlayerKind::kUct);
  EXPECT_EQ(spec.value().spec.budget, 300);
  EXPECT_EQ(networks.asked, std::vector<std::string>{"g12.ckpt/"});  // UCT opens nothing
}

TEST(PlayerOptions, ErrorsNameTheOption) {
  FakeNetworks networks;
  auto missing = PlayerOption("model", "x.ckpt", 64, networks.Source(), search::SearchConfig{});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "--model: x.ckpt: no such file");
  auto bad = PlayerOption("previous", "uct:0", 64, networks.Source(), search::SearchConfig{});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rfind("--previous: ", 0), 0u) << bad.error();
}

TEST(PlayerOptions, APrecisionNamesItsPlayer) {
  FakeNetworks networks;
  PlayerSpec spec{PlayerKind::kMcts, 32, "g3.ckpt"};
  spec.precision = "int8";
  auto p = ResolvePlayer(spec, networks.Source(), search::SearchConfig{});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p.value().name, "gen_3_int8");
  EXPECT_EQ(networks.asked, std::vector<std::string>{"g3.ckpt/int8"});
}

TEST(PlayerOptions, MatchPlayersGetDistinctNames) {
  FakeNetworks networks;
  const search::SearchConfig s;
  auto same = MatchPlayers({"mcts:g3.ckpt:16", "mcts:g3.ckpt:32"}, {}, s, networks.Source());
  ASSERT_TRUE(same) << same.error();
  EXPECT_EQ(same.value()[0].name, "gen_3_a");
  EXPECT_EQ(same.value()[1].name, "gen_3_b");
  auto named = MatchPlayers({"random", "random"}, {"me", std::nullopt}, s, networks.Source());
  ASSERT_TRUE(named) << named.error();
  EXPECT_EQ(named.value()[0].name, "me");
  EXPECT_EQ(named.value()[1].name, "random");
  auto clash = MatchPlayers({"random", "uct:10"}, {"x", "x"}, s, networks.Source());
  ASSERT_FALSE(clash);
  EXPECT_EQ(clash.error(), "--a-name and --b-name are both \"x\"");
  auto bad = MatchPlayers({"random", "mcts:nope.ckpt:8"}, {}, s, networks.Source());
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "--b: nope.ckpt: no such file");
}

TEST(PlayerOptions, TheLockRemovesAndReportsAKilledSessionsTemporaries) {
  test_support::TempDir run;
  std::filesystem::create_directories(MatchesDir(run.Str()));
  const std::string stale = MatchesDir(run.Str()) + "/m.json.tmp.123";
  std::ofstream(stale) << "half";
  util::DirectoryLock lock;
  std::ostringstream report;
  ASSERT_TRUE(LockRunDirectory("gate", run.Str(), lock, report).ok());
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_NE(report.str().find("veletas gate: "), std::string::npos) << report.str();
  EXPECT_NE(report.str().find("removed (incomplete file of a killed session)"), std::string::npos)
      << report.str();
  // A second lock on the same run is refused while the first is held.
  util::DirectoryLock second;
  std::ostringstream none;
  EXPECT_FALSE(LockRunDirectory("ladder", run.Str(), second, none).ok());
}

}  // namespace
}  // namespace veletas::arena
