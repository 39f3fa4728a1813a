// The learner's spot checks against a real redis-server: a worker that sends a forged
// target is quarantined, its games after its last passed check leave the training window, and
// a restarted learner still refuses it (cluster/learner/spot_checker.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "cluster/tools/status.h"
#include "cluster/transport/redis_commands.h"
#include "data/excluded_games.h"
#include "search/fake_evaluators.h"
#include "tests/cluster/forge_resignation.h"
#include "tests/cluster/learner_fixture.h"
#include "util/atomic_file.h"

namespace veletas::cluster {
namespace {

using testing::Bytes;

// A network loader (LearnerOptions::load_network) that gives every network an evaluator made
// by `make`, counting the loads in `loads` when given.
template <class Make>
auto Loader(Make make, int* loads = nullptr) {
  return [make, loads](const std::string&, std::optional<model::InferencePrecision>)
             -> util::Result<std::unique_ptr<search::Evaluator>> {
    if (loads != nullptr) ++*loads;
    return std::unique_ptr<search::Evaluator>(make());
  };
}
using testing::PlayGames;
using testing::SelfplayEntry;

// Spot checks at every position: a worker whose policy target is forged fails one and is
// quarantined. Its forged game is refused, a game of it stored after the failure (same batch)
// is excluded from training, its later games are refused, Redis and `cluster status` name
// it, and every game of the honest worker is kept.
TEST_F(LearnerTest, AWorkerWithAForgedTargetIsQuarantinedByTheSpotCheck) {
  testing::TempDir run;
  LearnerOptions o = Options(run.Str());
  o.cluster.spot_check_fraction = 1;
  o.cluster.ingest_batch = 16;
  o.search = search::SearchConfig{};  // as PlayGames searches
  int loads = 0;
  o.load_network = Loader([] { return std::make_unique<search::HashEvaluator>(1); }, &loads);
  std::string id;
  auto learner = StartPublished(o, run.Str(), id);
  ASSERT_NE(learner, nullptr);
  Learner& l = *learner;
  const auto games = PlayGames(9);
  ASSERT_EQ(games.size(), 9u);
  const Entry honest = SelfplayEntry(games[0], id, "evil");
  Entry forged = SelfplayEntry(games[1], id, "evil");
  {
    // All of the first sample's target on its least likely action.
    std::vector<data::PolicyEntry>& p = forged.game.samples[0].policy;
    const auto least = std::min_element(
        p.begin(), p.end(), [](const auto& a, const auto& b) { return a.prob < b.prob; });
    p = {{least->action, 1.0f}};
  }
  const Entry after = SelfplayEntry(games[2], id, "evil");
  Send("evil", Bytes(honest));
  Send("evil", Bytes(forged));
  Send("evil", Bytes(after));
  std::set<std::string> good_ids;
  for (int i = 3; i < 8; ++i) {
    const Entry e = SelfplayEntry(games[i], id, "good");
    good_ids.insert(ContentId(e));
    Send("good", Bytes(e));
  }
  const std::string dir = run.File("samples/iter_0000");
  auto report = l.CollectSelfplay(Request(dir, 7, {id}, {id}));
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(loads, 1);  // the network is loaded once
  EXPECT_EQ(report.value().totals.counters.rejected_by_reason.at("spot check"), 1);
  ASSERT_EQ(l.QuarantinedWorkers().count("evil"), 1u);
  EXPECT_NE(l.QuarantinedWorkers().at("evil").find("the policy target is"), std::string::npos)
      << l.QuarantinedWorkers().at("evil");
  EXPECT_EQ(l.QuarantinedWorkers().count("good"), 0u);
  EXPECT_GT(l.SpotChecks().positions, 20);
  EXPECT_EQ(l.SpotChecks().failed, 1);
  // In the training window: the honest worker's games and evil's game vouched for by a
  // passed check before the failure; not the forged one, nor the one after it.
  const auto stored = StoredIds(dir);
  auto excluded = data::ReadExcludedGames(dir);
  ASSERT_TRUE(excluded.ok()) << excluded.error();
  std::set<std::string> window;
  for (const std::string& g : stored) {
    if (!excluded.value().count(*data::GameId::FromHex(g))) window.insert(g);
  }
  std::set<std::string> expected = good_ids;
  expected.insert(ContentId(honest));
  EXPECT_EQ(window, expected);
  EXPECT_EQ(stored.count(ContentId(forged)), 0u);
  // Recorded in Redis, named by `cluster status`, logged.
  const RunKeys keys("t");
  EXPECT_NE(HashGet(*redis_, keys.Quarantined(), "evil").value().value_or("").find("spot check"),
            std::string::npos);
  auto status = ClusterStatus(*redis_, keys);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("quarantined worker evil: spot check: the policy target"),
            std::string::npos)
      << status.value();
  EXPECT_TRUE(std::any_of(log_.begin(), log_.end(), [](const std::string& line) {
    return line.find("worker evil quarantined") != std::string::npos;
  }));
  // A learner started again still refuses the quarantined worker's games.
  learner.reset();
  auto again = Learner::Start(o);
  ASSERT_TRUE(again.ok()) << again.error();
  ASSERT_TRUE(again.value()->Publish(Checkpoint(run.Str(), "net"), 1, true).ok());
  Send("evil", Bytes(SelfplayEntry(games[8], id, "evil")));
  Send("good", Bytes(SelfplayEntry(games[8], id, "good")));
  const std::string next = run.File("samples/iter_0001");
  auto second = again.value()->CollectSelfplay(Request(next, 1, {id}, {id}));
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second.value().totals.counters.rejected_by_reason.at("quarantined"), 1);
  EXPECT_EQ(second.value().games_by_worker.count("evil"), 0u);
}

// The games a worker stored since its last passed check are kept across a learner restart: a
// worker that fails its first check after the restart loses those from before it too.
// A worker that declares a precision the learner cannot run (bf16 here, as on a learner
// without AVX-512 BF16: its loader has no evaluator for it) escapes no check: its first
// kMaxUnreproducibleGames such games are stored unverified, the later ones refused as
// "unverifiable" and counted against it; another worker's games are checked and kept.
TEST_F(LearnerTest, AnUndeclarablePrecisionIsAllowedTwentyGamesThenRefused) {
  testing::TempDir run;
  LearnerOptions o = Options(run.Str());
  o.cluster.spot_check_fraction = 1;
  o.cluster.ingest_batch = 64;        // every entry in one read: all are judged
  o.search = search::SearchConfig{};  // as PlayGames searches
  o.load_network = [](const std::string&, std::optional<model::InferencePrecision> precision)
      -> util::Result<std::unique_ptr<search::Evaluator>> {
    if (precision == model::InferencePrecision::kBf16) return std::unique_ptr<search::Evaluator>();
    return std::unique_ptr<search::Evaluator>(std::make_unique<search::HashEvaluator>(1));
  };
  std::string id;
  auto learner = StartPublished(o, run.Str(), id);
  ASSERT_NE(learner, nullptr);
  const int declared = static_cast<int>(kMaxUnreproducibleGames) + 3;
  const auto games = PlayGames(declared + 3);
  ASSERT_EQ(games.size(), static_cast<size_t>(declared + 3));
  for (int i = 0; i < declared; ++i) {
    Entry e = SelfplayEntry(games[i], id, "bf");
    e.precision = model::InferencePrecision::kBf16;
    Send("bf", Bytes(e));
  }
  for (int i = declared; i < declared + 3; ++i)
    Send("good", Bytes(SelfplayEntry(games[i], id, "good")));
  // Every entry is read (one batch): the games the learner can take are the 20 and the good
  // worker's 3.
  const std::string dir = run.File("samples/iter_0000");
  auto report = learner->CollectSelfplay(Request(dir, kMaxUnreproducibleGames + 3, {id}, {id}));
  ASSERT_TRUE(report.ok()) << report.error();
  const auto count = [](const std::map<std::string, int64_t>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? int64_t{-1} : it->second;
  };
  const std::string log = ::testing::PrintToString(log_);
  EXPECT_EQ(count(report.value().games_by_worker, "bf"), kMaxUnreproducibleGames) << log;
  EXPECT_EQ(count(report.value().games_by_worker, "good"), 3) << log;
  EXPECT_EQ(count(report.value().totals.counters.rejected_by_reason, "unverifiable"), 3) << log;
  const RunKeys keys("t");
  EXPECT_EQ(HashGet(*redis_, keys.Stats(), "rejected-by:bf").value(), "3");
  EXPECT_FALSE(HashGet(*redis_, keys.Stats(), "rejected-by:good").value());
  EXPECT_FALSE(HashGet(*redis_, keys.Quarantined(), "bf").value());
  EXPECT_EQ(StoredIds(dir).size(), static_cast<size_t>(kMaxUnreproducibleGames + 3));
}

TEST_F(LearnerTest, AWorkersUnverifiedGamesSurviveALearnerRestart) {
  testing::TempDir run;
  LearnerOptions o = Options(run.Str());
  o.cluster.spot_check_fraction = 1e-12;  // the first learner draws no position
  o.search = search::SearchConfig{};
  o.load_network = Loader([] { return std::make_unique<search::HashEvaluator>(1); });
  const auto games = PlayGames(3);
  ASSERT_EQ(games.size(), 3u);
  std::string id;
  const Entry before = SelfplayEntry(games[0], "", "evil");
  {
    auto learner = Learner::Start(o);
    ASSERT_TRUE(learner.ok()) << learner.error();
    auto published = learner.value()->Publish(Checkpoint(run.Str(), "net"), 1, true);
    ASSERT_TRUE(published.ok()) << published.error();
    id = published.value();
    Entry e = before;
    e.network = id;
    Send("evil", Bytes(e));
    auto report =
        learner.value()->CollectSelfplay(Request(run.File("samples/iter_0000"), 1, {id}, {id}));
    ASSERT_TRUE(report.ok()) << report.error();
    EXPECT_EQ(report.value().games_by_worker.at("evil"), 1);
  }
  ASSERT_TRUE(std::filesystem::exists(run.File(std::string(kUnverifiedGamesFile))));
  // Restarted with every position checked: evil's forged game fails.
  o.cluster.spot_check_fraction = 1;
  auto again = Learner::Start(o);
  ASSERT_TRUE(again.ok()) << again.error();
  ASSERT_TRUE(again.value()->Publish(Checkpoint(run.Str(), "net"), 1, true).ok());
  Entry forged = SelfplayEntry(games[1], id, "evil");
  {
    std::vector<data::PolicyEntry>& p = forged.game.samples[0].policy;
    const auto least = std::min_element(
        p.begin(), p.end(), [](const auto& a, const auto& b) { return a.prob < b.prob; });
    p = {{least->action, 1.0f}};
  }
  Send("evil", Bytes(forged));
  Send("good", Bytes(SelfplayEntry(games[2], id, "good")));
  auto report =
      again.value()->CollectSelfplay(Request(run.File("samples/iter_0001"), 1, {id}, {id}));
  ASSERT_TRUE(report.ok()) << report.error();
  ASSERT_EQ(again.value()->QuarantinedWorkers().count("evil"), 1u);
  auto excluded = data::ReadExcludedGames(run.File("samples/iter_0000"));
  ASSERT_TRUE(excluded.ok()) << excluded.error();
  Entry stored = before;
  stored.network = id;
  EXPECT_EQ(excluded.value().size(), 1u);
  EXPECT_EQ(excluded.value().count(*data::GameId::FromHex(ContentId(stored))), 1u);
}

// A damaged list of unverified games stops the learner's start, naming the file and line.
TEST_F(LearnerTest, ADamagedListOfUnverifiedGamesIsBadInput) {
  testing::TempDir run;
  const std::string path = run.File(std::string(kUnverifiedGamesFile));
  ASSERT_TRUE(util::WriteFileAtomic(path, "w1\tdir\tnot-an-id\n").ok());
  auto learner = Learner::Start(Options(run.Str()));
  ASSERT_FALSE(learner.ok());
  EXPECT_NE(learner.error().find(path + ":1: expected worker<TAB>directory<TAB>game id"),
            std::string::npos)
      << learner.error();
}

// Every resigned game is checked when spot checks are on, whatever their fraction: a
// resignation the network agrees with is stored; one by the player the network finds winning
// (a game whose outcome is turned around, every target otherwise honest) is refused and its
// worker quarantined, named with the value the learner's search found.
TEST_F(LearnerTest, AFalseResignationIsCaughtAndItsWorkerQuarantined) {
  testing::TempDir run;
  LearnerOptions o = Options(run.Str());
  o.cluster.spot_check_fraction = 1e-12;  // no position drawn: the resignations only
  o.search = search::SearchConfig{};
  o.selfplay = testing::SmallSelfplay();
  o.selfplay.resign_threshold = -0.9f;
  // A network that finds person 0 losing everywhere.
  o.load_network = Loader([] {
    return std::make_unique<search::FunctionEvaluator>(
        [](const rules::Position& pos, search::EvalOutput& out) {
          search::FillUniformPolicy(pos, out);
          out.value = pos.ToMovePlayer() == 0 ? -0.95f : 0.95f;
        });
  });
  std::string id;
  auto learner = StartPublished(o, run.Str(), id);
  ASSERT_NE(learner, nullptr);
  Learner& l = *learner;
  const auto games = PlayGames(3);
  ASSERT_EQ(games.size(), 3u);
  const auto standing = testing::ResignedBy(games[0], 0, rules::RuleSet::kStandard, 7);
  const auto turned = testing::ResignedBy(games[1], 1, rules::RuleSet::kStandard, 7);
  ASSERT_TRUE(standing && turned);
  const Entry lie = SelfplayEntry(*turned, id, "liar");
  Send("liar", Bytes(lie));
  std::set<std::string> good_ids;
  for (const selfplay::FinishedGame* g : {&*standing, &games[2]}) {
    const Entry e = SelfplayEntry(*g, id, "good");
    good_ids.insert(ContentId(e));
    Send("good", Bytes(e));
  }
  const std::string dir = run.File("samples/iter_0000");
  auto report = l.CollectSelfplay(Request(dir, 2, {id}, {id}));
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report.value().totals.counters.rejected_by_reason.at("spot check"), 1);
  ASSERT_EQ(l.QuarantinedWorkers().count("liar"), 1u);
  EXPECT_NE(l.QuarantinedWorkers().at("liar").find("resigned where the learner's search of 8 "
                                                   "simulations finds 0.950"),
            std::string::npos)
      << l.QuarantinedWorkers().at("liar");
  EXPECT_EQ(l.QuarantinedWorkers().count("good"), 0u);
  EXPECT_EQ(l.SpotChecks().resignations, 2);
  EXPECT_EQ(l.SpotChecks().positions, 0);
  EXPECT_LE(l.SpotChecks().max_resign_value, -0.9);
  const auto stored = StoredIds(dir);
  EXPECT_EQ(std::set<std::string>(stored.begin(), stored.end()), good_ids);
  EXPECT_EQ(stored.count(ContentId(lie)), 0u);
}

}  // namespace
}  // namespace veletas::cluster
