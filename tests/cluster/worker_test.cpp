// Workers in this process (fake networks: search::HashEvaluator seeded by the network's bytes)
// against a real redis-server and the learner's side: self-play games arrive, arena matches
// played by workers are the very games the arena plays locally, a task of a dead worker is
// taken back by the learner, results for games their sender does not hold are rejected, and
// a worker picks up a new network.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "arena/gate.h"
#include "arena/match_record.h"
#include "cluster/learner/learner.h"
#include "cluster/learner/remote_arena.h"
#include "cluster/tools/audit.h"
#include "cluster/transport/entry.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/task.h"
#include "cluster/transport/task_handout.h"
#include "cluster/transport/worker_registry.h"
#include "cluster/worker/worker.h"
#include "tests/cluster/cluster_test_util.h"
#include "tests/cluster/forge_arena.h"
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

util::Result<arena::GateResult> Gate(const std::string& run_dir, const std::string& a_path,
                                     const std::string& b_path, arena::RemoteGames* remote);

class WorkerTest : public testing::RedisTest {
 protected:
  void TearDown() override {
    if (gate_.joinable()) FinishGate(spare_.Str());  // a test that stopped early
  }
  // A learner with a lease of 0 (a task whose holder's heartbeat does not name it is taken
  // back at the next check), and the gate of net-a and net-b through it on its own thread.
  void StartRemoteGate(const std::string& run_dir, std::vector<std::string>* lines = nullptr,
                       double task_max_seconds = 3600) {
    learner_ = StartLearner(run_dir, /*lease=*/0, lines, task_max_seconds);
    ASSERT_NE(learner_, nullptr);
    a_ = Network(run_dir, "net-a");
    b_ = Network(run_dir, "net-b");
    gate_ = std::thread([this, run_dir] { result_ = Gate(run_dir, a_, b_, &learner_->Arena()); });
  }
  // Registers `worker` (a stand-in made by the test) alive with a heartbeat naming no task
  // (60 s), and returns the first task the learner hands to it (waiting up to 10 s for the
  // gate to start); nullopt when none came.
  std::optional<HandedTask> TakeTask(const std::string& worker) {
    const RunKeys keys("t");
    EXPECT_TRUE(RegisterWorker(*redis_, keys, worker).ok());
    EXPECT_TRUE(SetValueWithTtl(*redis_, keys.Worker(worker), "{}", 60000).ok());
    for (int i = 0; i < 500; ++i) {
      auto handed = HandedTaskOf(*redis_, keys, worker);
      EXPECT_TRUE(handed.ok()) << handed.error();
      if (handed.ok() && handed.value()) return handed.value();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }
  // Worker "one" (its state in `dir`) plays what is left of the gate, without errors.
  void FinishGate(const std::string& dir) {
    WorkerThread one(options_, dir, "one");
    gate_.join();
    EXPECT_EQ(one.Log().find("ERROR"), std::string::npos) << one.Log();
  }

  // `lease`: the learner's cluster.task_timeout_seconds (0: a task whose holder's heartbeat
  // does not name it is taken back at the next check); `lines`: where its log goes.
  std::unique_ptr<Learner> StartLearner(const std::string& run_dir, double lease = 1,
                                        std::vector<std::string>* lines = nullptr,
                                        double task_max_seconds = 3600) {
    LearnerOptions o;
    o.redis = options_;
    o.run = "t";
    o.cluster = SmallSettings().cluster;
    o.cluster.task_timeout_seconds = lease;
    o.cluster.task_max_seconds = task_max_seconds;
    o.config_text = "config";
    o.run_dir = run_dir;
    o.network_bytes = [](const std::string& path) { return util::ReadFile(path); };
    if (lines != nullptr) o.log = [lines](const std::string& line) { lines->push_back(line); };
    auto l = Learner::Start(o);
    EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.error());
    return l.ok() ? std::move(l.value()) : nullptr;
  }
  std::string Network(const std::string& dir, const std::string& content) {
    const std::string path = dir + "/" + content + ".ckpt";
    std::ofstream(path) << content;
    return path;
  }
  std::unique_ptr<Learner> learner_;
  std::string a_, b_;
  std::thread gate_;
  util::Result<arena::GateResult> result_ = util::Result<arena::GateResult>::Error("not run");
  testing::TempDir spare_;

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
  EXPECT_TRUE(GetValue(*redis_, keys.Worker("one")).value());
  EXPECT_TRUE(GetValue(*redis_, keys.Worker("two")).value());
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

// A handed-out task's key deleted by hand (or lost with Redis's data): the learner's record
// is its own, so it writes the key again, and the gate is played.
TEST_F(WorkerTest, AHandedOutTaskWhoseKeyWasDeletedIsWrittenAgain) {
  testing::TempDir run, w1;
  StartRemoteGate(run.Str());
  const RunKeys keys("t");
  const std::optional<HandedTask> taken = TakeTask("slow");
  ASSERT_TRUE(taken);
  // Its heartbeat names the task: the lease holds.
  ASSERT_TRUE(
      SetValue(*redis_, keys.Worker("slow"), nlohmann::json{{"task", taken->id}}.dump()).ok());
  ASSERT_TRUE(DeleteKeys(*redis_, {keys.Task("slow")}).ok());
  std::optional<HandedTask> again;
  for (int i = 0; i < 500 && !again; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    again = HandedTaskOf(*redis_, keys, "slow").value();
  }
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, taken->id);
  EXPECT_EQ(again->text, taken->text);
  // It stops: its task is taken back, and worker "one" plays the gate.
  ASSERT_TRUE(DeleteKeys(*redis_, {keys.Worker("slow")}).ok());
  FinishGate(w1.Str());
  ASSERT_TRUE(result_.ok()) << result_.error();
  EXPECT_EQ(result_.value().record.games.size(), 8u);
}

TEST_F(WorkerTest, ATaskOfADeadWorkerIsTakenBackByTheLearnerAfterItsLease) {
  testing::TempDir run, w1;
  StartRemoteGate(run.Str());
  const RunKeys keys("t");
  // A worker is handed the first task and dies with it (no heartbeat ever names it).
  ASSERT_TRUE(TakeTask("dead"));
  ASSERT_TRUE(DeleteKeys(*redis_, {keys.Worker("dead")}).ok());
  FinishGate(w1.Str());
  ASSERT_TRUE(result_.ok()) << result_.error();
  EXPECT_EQ(result_.value().record.games.size(), 8u);
  // The learner took the task back (deleted its key: the worker may not) and handed its
  // games out again; the dead worker holds nothing any more, and the count names it.
  auto reassigned = HashGet(*redis_, keys.Stats(), "reassigned");
  ASSERT_TRUE(reassigned.ok());
  EXPECT_GE(std::atoll(reassigned.value().value_or("").c_str()), 1);
  EXPECT_GE(
      std::atoll(HashGet(*redis_, keys.Stats(), "taken-back:dead").value().value_or("").c_str()),
      1);
  EXPECT_FALSE(HandedTaskOf(*redis_, keys, "dead").value());
}

TEST_F(WorkerTest, ResultsForGamesTheSenderDoesNotHoldAreRejectedAndTheGateIsTheHonestOne) {
  testing::TempDir run, local, w1;
  StartRemoteGate(run.Str());
  const RunKeys keys("t");
  // The first batch's two tasks (games 0-1 and 2-3), one handed to the hostile worker, the
  // other to a stand-in for another worker.
  const std::optional<HandedTask> mine = TakeTask("evil");
  const std::optional<HandedTask> theirs = TakeTask("other");
  ASSERT_TRUE(mine && theirs);
  const std::string held = mine->id;
  const std::string other = theirs->id;
  auto task = DecodeTask(mine->text);
  ASSERT_TRUE(task.ok()) << task.error();
  // Wins for A in every game of the match, legal games with the right seats, each posted
  // under the task it does not hold, and those outside its own task under the one it holds.
  const std::vector<arena::ArenaGame> forged = testing::ForgedWins(
      {0, 1, 2, 3, 4, 5, 6, 7}, rules::RuleSet::kStandard, 7, SmallSettings().arena);
  ASSERT_EQ(forged.size(), 8u);
  int posted = 0;
  for (const arena::ArenaGame& g : forged) {
    for (const std::string& id : {other, held}) {
      const std::vector<int>& own = task.value().games;
      if (id == held && std::find(own.begin(), own.end(), g.index) != own.end()) continue;
      Entry e;
      e.kind = EntryKind::kArena;
      e.game_id = ArenaGameId(task.value().match, g.index);
      e.worker = "evil";
      e.task = id;
      e.match = task.value().match;
      e.arena = g;
      auto bytes = EncodeEntry(e);
      ASSERT_TRUE(bytes.ok());
      ASSERT_TRUE(AddEntry(*redis_, keys.WorkerArena("evil"), {{"e", bytes.value()}}).ok());
      ++posted;
    }
  }
  ASSERT_EQ(posted, 14);
  // All of them judged before any honest game is played.
  long long rejected = 0;
  for (int i = 0; i < 1500 && rejected < posted; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto r = HashGet(*redis_, keys.Stats(), "rejected-by:evil");
    ASSERT_TRUE(r.ok());
    rejected = std::atoll(r.value().value_or("").c_str());
  }
  EXPECT_EQ(rejected, posted);
  // Both stop; worker "one" plays the gate.
  ASSERT_TRUE(DeleteKeys(*redis_, {keys.Worker("evil"), keys.Worker("other")}).ok());
  FinishGate(w1.Str());
  ASSERT_TRUE(result_.ok()) << result_.error();
  auto here = Gate(local.Str(), a_, b_, nullptr);
  ASSERT_TRUE(here.ok()) << here.error();
  ASSERT_EQ(result_.value().record.games.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(result_.value().record.games[i].a_won, here.value().record.games[i].a_won) << i;
    EXPECT_EQ(result_.value().record.games[i].turns, here.value().record.games[i].turns) << i;
  }
  EXPECT_EQ(result_.value().promoted, here.value().promoted);
  // The audit says who played the gate's games: all by "one" (none of the forged ones), and
  // the local gate's in the learner's process.
  auto audit = AuditRun(run.Str());
  ASSERT_TRUE(audit.ok()) << audit.error();
  ASSERT_EQ(audit.value().match_workers.size(), 1u);
  const MatchAudit& m = audit.value().match_workers[0];
  EXPECT_EQ(m.decision, here.value().promoted ? "promote" : "reject");
  EXPECT_EQ(m.games, 8);
  ASSERT_EQ(m.games_by_worker.size(), 1u);
  EXPECT_EQ(m.games_by_worker.begin()->first, "one");
  EXPECT_EQ(IndexRanges(m.games_by_worker.begin()->second), "0-7");
  auto local_audit = AuditRun(local.Str());
  ASSERT_TRUE(local_audit.ok()) << local_audit.error();
  ASSERT_EQ(local_audit.value().match_workers.size(), 1u);
  EXPECT_EQ(local_audit.value().match_workers[0].games_by_worker.at(kLearnerPlayer).size(), 8u);
  // Counted against the hostile worker only; its task was taken back and played by "one".
  EXPECT_EQ(HashGet(*redis_, keys.Stats(), "rejected-by:evil").value(), std::to_string(posted));
  EXPECT_FALSE(HashGet(*redis_, keys.Stats(), "rejected-by:one").value());
  EXPECT_GE(std::atoll(HashGet(*redis_, keys.Stats(), "reassigned").value().value_or("").c_str()),
            1);
  auto dead = RangeEntries(*redis_, keys.Dead(), "-", "+");
  ASSERT_TRUE(dead.ok());
  const std::vector<StreamEntry>& letters = dead.value();
  ASSERT_EQ(letters.size(), static_cast<size_t>(posted));
  for (const StreamEntry& d : letters) {
    EXPECT_EQ(*d.Field("worker"), "evil");
    EXPECT_EQ(d.Field("reason")->rfind("not held: ", 0), 0u) << *d.Field("reason");
  }
}

TEST(HeldTaskLimit, TheMaximumUntilThreeTasksAreKnownThenFourMediansWithinTheLeaseAndMaximum) {
  config::ClusterConfig c;
  c.task_timeout_seconds = 10;
  c.task_max_seconds = 100;
  EXPECT_EQ(HeldTaskLimit({}, c), 100);
  EXPECT_EQ(HeldTaskLimit({1, 2}, c), 100);
  EXPECT_EQ(HeldTaskLimit({5, 7, 6}, c), 24);      // 4 x 6
  EXPECT_EQ(HeldTaskLimit({1, 2, 1, 90}, c), 10);  // 4 x 2 = 8, but at least the lease
  EXPECT_EQ(HeldTaskLimit({50, 60, 40}, c), 100);  // 4 x 50 = 200, but at most the maximum
}

TEST(HandOutOrder, WorkersWithFewerTasksTakenBackComeFirstTiesInTheirOrder) {
  EXPECT_EQ(HandOutOrder({"a", "b", "c", "d"}, {{"a", 2}, {"c", 1}, {"x", 5}}),
            (std::vector<std::string>{"b", "d", "c", "a"}));
  EXPECT_EQ(HandOutOrder({}, {{"a", 1}}), std::vector<std::string>{});
}

TEST(HeartbeatTask, TheTaskANamesOrNothing) {
  EXPECT_EQ(HeartbeatTask(R"({"task":"17-3","state":"arena task"})"), "17-3");
  EXPECT_EQ(HeartbeatTask(R"({"task":""})"), "");
  EXPECT_EQ(HeartbeatTask(R"({"task":5})"), "");
  EXPECT_EQ(HeartbeatTask("not json"), "");
  EXPECT_EQ(
      HeartbeatTask(R"({"task":"1-1","pad":")" + std::string(kMaxHeartbeatBytes, 'x') + R"("})"),
      "");
}

// A worker that is handed a task and keeps it alive without playing it (its heartbeat names
// the task, and it reads the task again and again): the task is taken back once held past
// cluster.task_max_seconds (2 here; with no completed tasks known yet, no median applies),
// and the gate is the honest one.
TEST_F(WorkerTest, ATaskKeptAliveButNeverPlayedIsTakenBackAndTheGateFinishes) {
  testing::TempDir run, local, w1;
  std::vector<std::string> lines;
  StartRemoteGate(run.Str(), &lines, /*task_max_seconds=*/2);
  const RunKeys keys("t");
  const std::optional<HandedTask> mine = TakeTask("evil");
  ASSERT_TRUE(mine);
  const std::string held = mine->id;
  ASSERT_TRUE(SetValue(*redis_, keys.Worker("evil"), nlohmann::json{{"task", held}}.dump()).ok());
  std::atomic<bool> stop{false};
  std::thread reread([&] {
    RedisClient own(options_);
    while (!stop) {
      HandedTaskOf(own, keys, "evil");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  FinishGate(w1.Str());
  stop = true;
  reread.join();
  ASSERT_TRUE(result_.ok()) << result_.error();
  auto here = Gate(local.Str(), a_, b_, nullptr);
  ASSERT_TRUE(here.ok()) << here.error();
  ASSERT_EQ(result_.value().record.games.size(), here.value().record.games.size());
  for (size_t i = 0; i < here.value().record.games.size(); ++i) {
    EXPECT_EQ(result_.value().record.games[i].a_won, here.value().record.games[i].a_won) << i;
  }
  bool taken_back = false;
  for (const std::string& line : lines) {
    taken_back |=
        line.find("task " + held + " of worker evil taken back (held for") != std::string::npos;
  }
  EXPECT_TRUE(taken_back) << ::testing::PrintToString(lines);
  auto audit = AuditRun(run.Str());
  ASSERT_TRUE(audit.ok()) << audit.error();
  ASSERT_EQ(audit.value().match_workers.size(), 1u);
  EXPECT_FALSE(audit.value().match_workers[0].games_by_worker.count("evil"));
}

}  // namespace
}  // namespace veletas::cluster
