// Workers in this process (fake networks: search::HashEvaluator seeded by the network's bytes)
// against a real redis-server and the learner's side: self-play games arrive, arena matches
// played by workers are the very games the arena plays locally, a task of a silent worker is
// taken over, and a worker picks up a new network.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "arena/gate.h"
#include "arena/match_record.h"
#include "cluster/learner.h"
#include "cluster/streams.h"
#include "cluster/worker.h"
#include "tests/cluster/cluster_test_util.h"
#include "util/atomic_file.h"
#include "util/checksum.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

// The evaluator of a fake network: a HashEvaluator seeded by the checkpoint's bytes.
uint64_t SeedOf(const std::string& bytes) { return util::Checksum64(bytes); }

RunSettings SmallSettings() {
  RunSettings s;
  s.selfplay = testing::SmallSelfplay();
  s.batching = testing::SmallBatching();
  s.arena.games_in_parallel = 4;
  s.arena.threads = 1;
  s.arena.opening_turns = 1;
  s.cluster.heartbeat_seconds = 0.2;
  s.cluster.task_timeout_seconds = 1;
  s.cluster.spool_grace_seconds = 0.2;
  s.cluster.arena_games_per_task = 2;
  s.max_queued_games = 1000;
  return s;
}

class FakeLoader final : public RunLoader {
 public:
  util::Result<RunSettings> Settings(const std::string&) override { return SmallSettings(); }
  util::Result<std::unique_ptr<search::Evaluator>> Load(const std::string& path) override {
    auto bytes = util::ReadFile(path);
    if (!bytes) return bytes.error_value();
    ++loads;
    return std::unique_ptr<search::Evaluator>(
        std::make_unique<search::HashEvaluator>(SeedOf(bytes.value())));
  }
  std::atomic<int> loads{0};
};

// A worker on its own thread until the test ends.
class WorkerThread {
 public:
  WorkerThread(const RedisOptions& redis, const std::string& dir, const std::string& id) {
    options_.redis = redis;
    options_.run = "t";
    options_.dir = dir;
    options_.id = id;
    options_.poll_seconds = 0.05;
    options_.stop = &stop_;
    options_.log = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      log_ += line + "\n";
    };
    thread_ = std::thread([this] {
      auto r = RunWorker(options_, loader_);
      std::lock_guard<std::mutex> lock(mutex_);
      if (!r) log_ += "ERROR " + r.error() + "\n";
    });
  }
  ~WorkerThread() {
    stop_ = true;
    thread_.join();
  }
  std::string Log() {
    std::lock_guard<std::mutex> lock(mutex_);
    return log_;
  }
  FakeLoader loader_;

 private:
  WorkerOptions options_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::string log_;
  std::thread thread_;
};

class WorkerTest : public testing::RedisTest {
 protected:
  std::unique_ptr<Learner> StartLearner(const std::string& run_dir) {
    LearnerOptions o;
    o.redis = options_;
    o.run = "t";
    o.cluster = SmallSettings().cluster;
    o.config_text = "config";
    o.run_dir = run_dir;
    o.network_bytes = [](const std::string& path) { return util::ReadFile(path); };
    auto l = Learner::Start(o);
    EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.error());
    return l.ok() ? std::move(l.value()) : nullptr;
  }
  std::string Network(const std::string& dir, const std::string& content) {
    const std::string path = dir + "/" + content + ".ckpt";
    std::ofstream(path) << content;
    return path;
  }
  CollectRequest Request(const std::string& dir, int64_t games, const std::string& net) {
    CollectRequest r;
    r.dir.dir = dir;
    r.dir.games = games;
    r.dir.games_per_file = 3;
    r.dir.size = 7;
    r.accepted = {net};
    r.known = {net};
    return r;
  }
};

TEST_F(WorkerTest, WorkersFeedTheLearnerAndFollowTheNetwork) {
  testing::TempDir run, w1, w2;
  auto learner = StartLearner(run.Str());
  ASSERT_NE(learner, nullptr);
  const std::string a = learner->Publish(Network(run.Str(), "net-a"), 0, true).value();
  WorkerThread one(options_, w1.Str(), "one");
  WorkerThread two(options_, w2.Str(), "two");
  auto first = learner->CollectSelfplay(Request(run.File("iter_0"), 8, a));
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first.value().totals.games, 8);
  EXPECT_EQ(first.value().totals.counters.rejected, 0);
  // A new network: the workers switch between games; games of the old one become stale.
  const std::string b = learner->Publish(Network(run.Str(), "net-b"), 1, true).value();
  CollectRequest next = Request(run.File("iter_1"), 6, b);
  next.known.insert(a);
  auto second = learner->CollectSelfplay(next);
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second.value().totals.games, 6);
  EXPECT_GE(one.loader_.loads + two.loader_.loads, 4);
  EXPECT_NE(one.Log().find("self-play with gen 1"), std::string::npos) << one.Log();
  EXPECT_EQ(one.Log().find("ERROR"), std::string::npos) << one.Log();
  // Heartbeats say who is alive.
  const RunKeys keys("t");
  EXPECT_FALSE(redis_->Call({"GET", keys.Worker("one")}).value().IsNil());
  EXPECT_FALSE(redis_->Call({"GET", keys.Worker("two")}).value().IsNil());
}

// The gate of two fake networks with `remote` (or in this process when null).
util::Result<arena::GateResult> Gate(const std::string& run_dir, const std::string& a_path,
                                     const std::string& b_path, arena::RemoteGames* remote) {
  static search::HashEvaluator ea(SeedOf("net-a")), eb(SeedOf("net-b"));
  search::SearchConfig search;
  const arena::ArenaPlayer a = arena::MakeGenerationPlayer(2, a_path, ea, search, 8);
  const arena::ArenaPlayer b = arena::MakeGenerationPlayer(1, b_path, eb, search, 8);
  arena::GateSettings gate;
  gate.config.method = arena::GateMethod::kFixedGames;
  gate.config.games = 8;
  gate.batch_games = 4;
  arena::ArenaConfig config = SmallSettings().arena;
  config.seed = 5;
  return arena::RunGate(a, b, rules::RuleSet::kStandard, 7, gate, config, run_dir, "", {}, remote);
}

TEST_F(WorkerTest, GateGamesPlayedByWorkersAreTheArenasGames) {
  testing::TempDir run, local, w1, w2;
  auto learner = StartLearner(run.Str());
  ASSERT_NE(learner, nullptr);
  const std::string a = Network(run.Str(), "net-a");
  const std::string b = Network(run.Str(), "net-b");
  WorkerThread one(options_, w1.Str(), "one");
  WorkerThread two(options_, w2.Str(), "two");
  auto remote = Gate(run.Str(), a, b, &learner->Arena());
  ASSERT_TRUE(remote.ok()) << remote.error();
  auto here = Gate(local.Str(), a, b, nullptr);
  ASSERT_TRUE(here.ok()) << here.error();
  ASSERT_EQ(remote.value().record.games.size(), 8u);
  ASSERT_EQ(here.value().record.games.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(remote.value().record.games[i].a_won, here.value().record.games[i].a_won) << i;
    EXPECT_EQ(remote.value().record.games[i].turns, here.value().record.games[i].turns) << i;
  }
  EXPECT_EQ(util::ReadFile(remote.value().match_file + "").ok(), true);
  // Both workers took part: the tasks were spread.
  const std::string logs = one.Log() + two.Log();
  EXPECT_NE(one.Log().find("task"), std::string::npos) << logs;
  EXPECT_NE(two.Log().find("task"), std::string::npos) << logs;
  EXPECT_EQ(logs.find("ERROR"), std::string::npos) << logs;
}

TEST_F(WorkerTest, ATaskOfASilentWorkerIsTakenOver) {
  testing::TempDir run, w1;
  auto learner = StartLearner(run.Str());
  ASSERT_NE(learner, nullptr);
  const RunKeys keys("t");
  const std::string a = Network(run.Str(), "net-a");
  const std::string b = Network(run.Str(), "net-b");
  util::Result<arena::GateResult> result = util::Result<arena::GateResult>::Error("not run");
  std::thread gate([&] { result = Gate(run.Str(), a, b, &learner->Arena()); });
  // A worker takes the first task and dies with it.
  std::vector<StreamEntry> taken;
  for (int i = 0; i < 200 && taken.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto r = ReadGroup(*redis_, keys.Tasks(), kWorkerGroup, "dead", 1, 0, false);
    ASSERT_TRUE(r.ok()) << r.error();
    taken = r.value();
  }
  ASSERT_EQ(taken.size(), 1u);
  {
    WorkerThread one(options_, w1.Str(), "one");
    gate.join();
    EXPECT_NE(one.Log().find("took over task " + taken[0].id), std::string::npos) << one.Log();
  }
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result.value().record.games.size(), 8u);
}

}  // namespace
}  // namespace veletas::cluster
