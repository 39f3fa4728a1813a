// The setup of `veletas cluster setup` / `add-worker` / `remove-worker` against a real
// redis-server started with its config: the default user is off and stays off after a
// restart, the users and limits survive it, passwords are stored hashed and the credentials
// files are the owner's alone, and a worker's user may add entries to its own streams and do
// nothing else that could hurt the run (each attack below is refused with NOPERM, or, where
// Redis cannot refuse it, hurts only the worker's own stream).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <memory>
#include <string>

#include "cluster/tools/status.h"
#include "cluster/transport/networks.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/task_handout.h"
#include "cluster/transport/worker_registry.h"
#include "tests/cluster/cluster_test_util.h"
#include "util/atomic_file.h"
#include "util/private_file.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

constexpr int64_t kMaxMemory = int64_t{64} << 20;
constexpr int64_t kMaxEntry = int64_t{2} << 20;

unsigned Mode(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

class RedisSetupTest : public testing::SetupServerTest {
 protected:
  void SetUp() override {
    // appendfsync always (after the setup's everysec): nothing written is lost by a kill.
    ASSERT_NO_FATAL_FAILURE(StartSetupServer(kMaxMemory, kMaxEntry, "appendfsync always"));
  }

  // What the server must hold after a start or restart.
  void ExpectSecured() {
    auto open = Client("");
    const util::Status ping = Ping(*open);
    ASSERT_FALSE(ping.ok());
    EXPECT_TRUE(open->Connected());  // an error reply, not a lost connection
    EXPECT_NE(ping.error().find(": NOAUTH"), std::string::npos) << ping.error();
    RedisOptions as_default;
    as_default.endpoint.port = server_->Port();
    as_default.auth = {"default", "anything"};
    EXPECT_FALSE(RedisClient(as_default).Connect().ok());
    auto learner = Client("learner");
    ASSERT_TRUE(learner->Connect().ok());
    EXPECT_EQ(testing::ConfigValue(*learner, "maxmemory"), std::to_string(kMaxMemory));
    EXPECT_EQ(testing::ConfigValue(*learner, "maxmemory-policy"), "noeviction");
    EXPECT_EQ(testing::ConfigValue(*learner, "appendonly"), "yes");
    const int64_t bulk = std::stoll(testing::ConfigValue(*learner, "proto-max-bulk-len"));
    EXPECT_GE(bulk, kMaxEntry);
    EXPECT_LT(bulk, 2 * kMaxEntry);
    EXPECT_EQ(std::stoll(testing::ConfigValue(*learner, "client-query-buffer-limit")), 2 * bulk);
    // The learner's keys are the run's.
    EXPECT_TRUE(SetValue(*learner, "vz:t:config", "c").ok());
    const util::Status other = SetValue(*learner, "vz:other:config", "c");
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().find(": NOPERM"), std::string::npos) << other.error();
  }
};

TEST_F(RedisSetupTest, TheSetupSurvivesARestartWithItsUsersAndLimits) {
  for (const char* f : {"users.acl", "admin.auth", "learner.auth"}) {
    EXPECT_EQ(Mode(dir_.File(f)), 0600u) << f;
  }
  const auto acl = util::ReadFile(AclFile(dir_.Str()));
  ASSERT_TRUE(acl.ok());
  const auto learner = LoadRedisAuth(AuthFile(dir_.Str(), "learner"));
  ASSERT_TRUE(learner.ok());
  EXPECT_EQ(learner.value().user, LearnerUser("t"));
  EXPECT_EQ(learner.value().password.size(), 64u);
  EXPECT_EQ(acl.value().find(learner.value().password), std::string::npos);
  EXPECT_NE(acl.value().find("#" + util::Sha256Hex(learner.value().password)), std::string::npos);
  ExpectSecured();
  // A published network (a MULTI/EXEC transaction) and an entry pending at the learner's
  // group (XREADGROUP's propagated effects): Redis 7.0 checks both against the default
  // user's rights as it replays its append-only file; with a default user of no rights both
  // were lost here.
  const RunKeys k("t");
  auto learner_client = Client("learner");
  auto net = PublishNetwork(*learner_client, k, "network bytes", 3, true);
  ASSERT_TRUE(net.ok()) << net.error();
  ASSERT_TRUE(RegisterWorker(*learner_client, k, "w").ok());
  ASSERT_TRUE(AddEntry(*learner_client, k.WorkerSelfplay("w"), {{"e", "x"}}).ok());
  ASSERT_EQ(ReadGroup(*learner_client, k.WorkerSelfplay("w"), kLearnerGroup, kLearnerConsumer, 8, 0,
                      false)
                .value()
                .size(),
            1u);
  ASSERT_TRUE(server_->Restart());
  ExpectSecured();
  auto after = Client("learner");
  EXPECT_EQ(GetValue(*after, "vz:t:config").value(), "c");
  EXPECT_EQ(HashGet(*after, k.Models(), net.value()).value(), "3");
  EXPECT_EQ(ListLength(*after, k.Model(net.value())).value(), 1);
  EXPECT_EQ(Pending(*after, k.WorkerSelfplay("w"), kLearnerGroup).value().count, 1);
  // Written once: a second setup in the same directory is refused.
  RedisSetupOptions again;
  again.run = "t";
  again.dir = dir_.Str();
  EXPECT_EQ(WriteRedisSetup(again).kind(), util::ErrorKind::kBadInput);
}

// True when `reply` is a NOPERM refusal.
bool Refused(const util::Result<RedisValue>& reply) {
  return reply.ok() && reply.value().IsError() && reply.value().str.rfind("NOPERM", 0) == 0;
}

TEST_F(RedisSetupTest, AWorkerMayOnlyAppendToItsOwnStreams) {
  auto admin = Client("admin");
  const RunKeys k("t");
  for (const char* w : {"w1", "w2"}) {
    auto auth = AddWorkerUser(dir_.Str(), "t", w);
    ASSERT_TRUE(auth.ok()) << auth.error();
    EXPECT_EQ(Mode(auth.value()), 0600u);
    const util::Status applied = ApplyWorkerChange(*admin, dir_.Str(), "t", w, true);
    ASSERT_TRUE(applied.ok()) << applied.error();
  }
  EXPECT_EQ(AddWorkerUser(dir_.Str(), "t", "w1").kind(), util::ErrorKind::kBadInput);
  ASSERT_TRUE(SetValue(*admin, k.Config(), "config").ok());
  EXPECT_EQ(RegisteredWorkers(*admin, k).value(), (std::vector<std::string>{"w1", "w2"}));
  auto w1 = Client("w1");
  auto w2 = Client("w2");
  ASSERT_TRUE(AddEntry(*w2, k.WorkerSelfplay("w2"), {{"e", "honest"}}).ok());
  // What a worker needs: the commands the worker sends (the typed functions it calls).
  EXPECT_TRUE(AddEntry(*w1, k.WorkerSelfplay("w1"), {{"e", "x"}}).ok());
  EXPECT_TRUE(AddEntry(*w1, k.WorkerArena("w1"), {{"e", "x"}}).ok());
  EXPECT_TRUE(SetValueWithTtl(*w1, k.Worker("w1"), "{}", 1000).ok());
  EXPECT_EQ(GetValue(*w1, k.Config()).value(), "config");
  EXPECT_TRUE(StreamLength(*w1, k.WorkerSelfplay("w1")).ok());
  EXPECT_TRUE(GetValue(*w1, k.Queued()).ok());
  // Tasks handed to w1 and w2 (cluster/transport/task_handout.h, as the learner does): each
  // reads its own, and can neither take the other's nor change or drop its own (only the
  // learner hands tasks out and takes them back).
  ASSERT_TRUE(HandOutTask(*admin, k, "w1", {"1-1", "task one", 1}).ok());
  ASSERT_TRUE(HandOutTask(*admin, k, "w2", {"1-2", "task two", 1}).ok());
  auto mine = HandedTaskOf(*w1, k, "w1");
  ASSERT_TRUE(mine.ok() && mine.value()) << (mine.ok() ? "none" : mine.error());
  EXPECT_EQ(mine.value()->id, "1-1");
  EXPECT_EQ(mine.value()->text, "task one");
  const std::string t = "1-2";
  // The attacks of issue 29 and more: all refused. Raw argument vectors on purpose: they are
  // what a hostile worker sends, not what the cluster's typed commands would.
  const std::vector<std::vector<std::string>> attacks = {
      {"SET", k.WorkerSelfplay("w1"), "x"},
      {"DEL", k.WorkerSelfplay("w1")},
      {"XTRIM", k.WorkerSelfplay("w1"), "MAXLEN", "0"},
      {"XADD", k.WorkerSelfplay("w2"), "*", "e", "x"},
      {"XADD", k.WorkerSelfplay("w2"), "MAXLEN", "0", "*", "e", "x"},
      {"XADD", k.WorkerArena("w2"), "*", "e", "x"},
      {"XADD", k.WorkerSelfplay("w3"), "*", "e", "x"},
      {"XADD", k.prefix + "tasks", "*", "t", "x"},
      {"XADD", k.Dead(), "*", "e", "x"},
      {"XRANGE", k.WorkerSelfplay("w1"), "-", "+"},
      {"XREADGROUP", "GROUP", kLearnerGroup, "x", "STREAMS", k.WorkerSelfplay("w2"), ">"},
      {"XCLAIM", k.WorkerSelfplay("w2"), kLearnerGroup, "x", "0", "0-1"},
      {"XAUTOCLAIM", k.WorkerSelfplay("w1"), kLearnerGroup, "x", "0", "0-0"},
      {"XGROUP", "DESTROY", k.WorkerSelfplay("w1"), kLearnerGroup},
      {"HMGET", k.Task("w2"), "id", "t"},
      {"HGETALL", k.Task("w1")},
      {"HSET", k.Task("w1"), "id", t},
      {"HSET", k.Task("w2"), "id", "1-1"},
      {"DEL", k.Task("w1")},
      {"DEL", k.Task("w2")},
      {"RENAME", k.Task("w2"), k.Task("w1")},
      // Issue 48's attacks 1 and 4: tasks read from a shared stream with NOACK, huge consumer
      // names: no stream group command at all.
      {"XREADGROUP", "GROUP", "workers", "w1", "COUNT", "100", "NOACK", "STREAMS",
       k.prefix + "tasks", ">"},
      {"XREADGROUP", "GROUP", "workers", std::string(1 << 20, 'x'), "COUNT", "1", "STREAMS",
       k.prefix + "tasks", "0"},
      {"XGROUP", "CREATECONSUMER", k.WorkerSelfplay("w1"), kLearnerGroup, "x"},
      {"XLEN", k.WorkerSelfplay("w2")},
      // A connection name long enough to push the user out of Redis's 1,024-byte log line
      // when Redis closes the connection (cluster/tools/redis_log.h).
      {"CLIENT", "SETNAME", std::string(1000, 'x')},
      {"SET", k.Config(), "x"},
      {"SET", k.Worker("w2"), "{}"},
      {"GET", k.Worker("w2")},
      {"SET", k.Queued(), "0"},
      {"SET", k.prefix + "junk", "x"},
      {"SADD", k.Workers(), "w3"},
      {"HSET", k.Stats(), "accepted", "0"},
      {"KEYS", "*"},
      {"SCAN", "0"},
      {"FLUSHALL"},
      {"CONFIG", "SET", "maxmemory", "0"},
      {"ACL", "LIST"},
      {"EVAL", "return 1", "0"},
  };
  for (const auto& attack : attacks) {
    std::vector<std::string_view> args(attack.begin(), attack.end());
    const auto reply = w1->Command(args);
    EXPECT_TRUE(Refused(reply)) << attack[0] << " " << (attack.size() > 1 ? attack[1] : "") << ": "
                                << (reply.ok() ? reply.value().str : reply.error());
  }
  // Every refusal is in Redis's ACL LOG, which `cluster status` (as the learner) reads.
  auto learner = Client("learner");
  auto status = ClusterStatus(*learner, k);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("refused by Redis (ACL LOG) by worker: w1 " +
                                std::to_string(attacks.size()) + " (newest: "),
            std::string::npos)
      << status.value();
  // Who holds what, from the hand-out keys.
  EXPECT_NE(status.value().find("arena tasks handed out by the learner: 2\n"), std::string::npos)
      << status.value();
  EXPECT_NE(status.value().find("  task 1-2 held by w2: (unreadable), for "), std::string::npos)
      << status.value();
  auto holder = HandedTaskOf(*admin, k, "w2");
  ASSERT_TRUE(holder.ok() && holder.value());
  EXPECT_EQ(holder.value()->id, t);
  // What Redis cannot refuse hurts only the attacker's own stream: its own entries trimmed,
  // its own id space exhausted (raw: the attacker's own commands); the other worker adds
  // games as before.
  EXPECT_TRUE(w1->Call({"XADD", k.WorkerSelfplay("w1"), "MAXLEN", "0", "*", "e", "x"}).ok());
  EXPECT_TRUE(w1->Call({"XADD", k.WorkerSelfplay("w1"), "18446744073709551615-18446744073709551615",
                        "e", "x"})
                  .ok());
  EXPECT_FALSE(AddEntry(*w1, k.WorkerSelfplay("w1"), {{"e", "x"}}).ok());
  EXPECT_TRUE(AddEntry(*w2, k.WorkerSelfplay("w2"), {{"e", "honest"}}).ok());
  EXPECT_EQ(StreamLength(*admin, k.WorkerSelfplay("w2")).value(), 2);
  // The users survive a restart.
  ASSERT_TRUE(server_->Restart());
  EXPECT_TRUE(Client("w1")->Connect().ok());
  // Removed: its connections closed, its login refused, its streams and registration gone.
  ASSERT_TRUE(w1->Connect().ok());
  auto admin2 = Client("admin");
  ASSERT_TRUE(RemoveWorkerUser(dir_.Str(), "t", "w1").ok());
  const util::Status removed = ApplyWorkerChange(*admin2, dir_.Str(), "t", "w1", false);
  ASSERT_TRUE(removed.ok()) << removed.error();
  EXPECT_FALSE(Ping(*w1).ok());
  EXPECT_FALSE(w1->Connected());  // its connection closed (not an error reply)
  EXPECT_FALSE(w1->Connect().ok());
  EXPECT_FALSE(KeyExists(*admin2, k.WorkerSelfplay("w1")).value());
  EXPECT_EQ(RegisteredWorkers(*admin2, k).value(), std::vector<std::string>{"w2"});
  EXPECT_TRUE(AddEntry(*Client("w2"), k.WorkerSelfplay("w2"), {{"e", "x"}}).ok());
  EXPECT_EQ(RemoveWorkerUser(dir_.Str(), "t", "w1").kind(), util::ErrorKind::kBadInput);
}

// A setup written before the learner's newer rights and before tasks were handed out in
// each worker's own key: the learner finds which rights it lacks; `cluster upgrade-acl`
// (ChangeWorker with no name) rewrites users.acl in place with the passwords kept and gives
// the running server the new rules without closing the users' connections.
TEST_F(RedisSetupTest, AnOlderSetupIsUpgradedInPlaceKeepingPasswordsAndConnections) {
  const RunKeys k("t");
  ASSERT_TRUE(AddWorkerUser(dir_.Str(), "t", "w1").ok());
  const std::string current = util::ReadFile(AclFile(dir_.Str())).value();
  // The rules of the setup before 2026-12-05 and of issue 48's first round.
  std::string old = current;
  const std::string rights = " +acl|log +client|list +client|kill +client|no-evict";
  old.replace(old.find(rights), rights.size(), "");
  const std::string task_key = " %R~" + k.Task("w1") + ")";
  old.replace(old.find(task_key), task_key.size(), ")");
  old.insert(old.find('\n', old.find("user " + k.WorkerUser("w1"))),
             " (+xreadgroup %RW~" + k.prefix + "tasks)");
  ASSERT_TRUE(util::WriteFileAtomicMode(AclFile(dir_.Str()), old, 0600).ok());
  auto admin = Client("admin");
  for (const std::string& user : {LearnerUser("t"), k.WorkerUser("w1")}) {
    const size_t at = old.find("user " + user + " ");
    const std::vector<std::string> words = AclWords(old.substr(at, old.find('\n', at) - at));
    std::vector<std::string> rules{"reset"};
    rules.insert(rules.end(), words.begin() + 2, words.end());
    ASSERT_TRUE(AclSetUser(*admin, user, rules).ok());
  }
  auto learner = Client("learner");
  auto w1 = Client("w1");
  ASSERT_TRUE(learner->Connect().ok());
  ASSERT_TRUE(w1->Connect().ok());
  auto missing = MissingLearnerRights(*learner);
  ASSERT_TRUE(missing.ok()) << missing.error();
  EXPECT_EQ(missing.value(), (std::vector<std::string>{"+acl|log", "+client|list", "+client|kill",
                                                       "+client|no-evict"}));
  auto refused = HandedTaskOf(*w1, k, "w1");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find(": NOPERM"), std::string::npos) << refused.error();
  auto upgraded = ChangeWorker(server_->Url(), dir_.Str(), "t", "", true);
  ASSERT_TRUE(upgraded.ok()) << upgraded.error();
  EXPECT_EQ(upgraded.value().upgraded, 2);
  EXPECT_EQ(util::ReadFile(AclFile(dir_.Str())).value(), current);
  // The same connections, now with the new rules; the same credentials files log in.
  EXPECT_TRUE(MissingLearnerRights(*learner).value().empty());
  EXPECT_TRUE(HandedTaskOf(*w1, k, "w1").ok());
  EXPECT_TRUE(Client("w1")->Connect().ok());
  EXPECT_TRUE(Client("learner")->Connect().ok());
  EXPECT_EQ(ChangeWorker(server_->Url(), dir_.Str(), "t", "", true).value().upgraded, 0);
}

// `cluster add-worker` / `remove-worker` (ChangeWorker): the server is reached first, so an
// unreachable one leaves users.acl untouched; then file and server change together.
TEST_F(RedisSetupTest, AWorkerChangeReachesTheServerBeforeItEditsTheFile) {
  const RunKeys k("t");
  const std::string url = server_->Url();
  const auto before = util::ReadFile(AclFile(dir_.Str()));
  ASSERT_TRUE(before.ok());
  server_->Kill();
  auto unreachable = ChangeWorker(url, dir_.Str(), "t", "w1", true);
  ASSERT_FALSE(unreachable.ok());
  EXPECT_EQ(util::ReadFile(AclFile(dir_.Str())).value(), before.value());
  EXPECT_FALSE(util::ReadFile(AuthFile(dir_.Str(), "w1")).ok());
  ASSERT_TRUE(server_->Restart());
  auto added = ChangeWorker(url, dir_.Str(), "t", "w1", true);
  ASSERT_TRUE(added.ok()) << added.error();
  EXPECT_EQ(added.value().auth_file, AuthFile(dir_.Str(), "w1"));
  EXPECT_EQ(added.value().endpoint, "127.0.0.1:" + std::to_string(server_->Port()));
  EXPECT_NE(util::ReadFile(AclFile(dir_.Str())).value().find("user " + k.WorkerUser("w1") + " "),
            std::string::npos);
  auto w1 = Client("w1");
  EXPECT_TRUE(w1->Connect().ok());
  auto admin = Client("admin");
  EXPECT_EQ(RegisteredWorkers(*admin, k).value(), std::vector<std::string>{"w1"});
  EXPECT_EQ(ChangeWorker(url, dir_.Str(), "t", "w1", true).kind(), util::ErrorKind::kBadInput);
  auto removed = ChangeWorker(url, dir_.Str(), "t", "w1", false);
  ASSERT_TRUE(removed.ok()) << removed.error();
  EXPECT_TRUE(removed.value().auth_file.empty());
  EXPECT_EQ(util::ReadFile(AclFile(dir_.Str())).value().find(k.WorkerUser("w1")),
            std::string::npos);
  EXPECT_FALSE(util::ReadFile(AuthFile(dir_.Str(), "w1")).ok());
  EXPECT_FALSE(Ping(*w1).ok());
  EXPECT_FALSE(w1->Connected());     // its connection closed
  EXPECT_FALSE(w1->Connect().ok());  // its login refused
  EXPECT_TRUE(RegisteredWorkers(*admin, k).value().empty());
}

}  // namespace
}  // namespace veletas::cluster
