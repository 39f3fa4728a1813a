// Redis's own resources against a real redis-server with the setup of `veletas cluster setup`
// (issue 48): the limits the setup writes, the learner's guard (cluster/learner/redis_guard.h)
// counting refusals by whom they can be blamed on and cutting a worker's surplus connections,
// `cluster status` naming the attacker and no honest worker, and the client telling refused
// credentials (exit) from a full or refusing Redis (wait and retry).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cluster/learner/redis_guard.h"
#include "cluster/tools/status.h"
#include "cluster/transport/blame.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"
#include "cluster/transport/worker_registry.h"
#include "tests/cluster/cluster_test_util.h"

namespace veletas::cluster {
namespace {

constexpr int64_t kMaxMemory = int64_t{128} << 20;

class RedisGuardTest : public testing::SetupServerTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(StartSetupServer(kMaxMemory));
    admin_ = Client("admin");
    for (const char* w : {"w1", "w2", "evil"}) {
      ASSERT_TRUE(AddWorkerUser(dir_.Str(), "t", w).ok());
      ASSERT_TRUE(ApplyWorkerChange(*admin_, dir_.Str(), "t", w, true).ok());
    }
  }
  std::string Stat(const std::string& field) {
    auto v = HashGet(*admin_, keys_.Stats(), field);
    EXPECT_TRUE(v.ok());
    return v.ok() ? v.value().value_or("") : "";
  }

  std::unique_ptr<RedisClient> admin_;
  const RunKeys keys_{"t"};
};

TEST_F(RedisGuardTest, TheSetupBoundsEveryConnectionsBuffers) {
  const int64_t bulk = MaxBulk(kDefaultMaxEntryBytes);
  EXPECT_EQ(bulk, 4259840);  // docs/CLUSTER.md's figure
  EXPECT_EQ(testing::ConfigValue(*admin_, "proto-max-bulk-len"), std::to_string(bulk));
  const std::string limits = testing::ConfigValue(*admin_, "client-output-buffer-limit");
  EXPECT_EQ(limits.substr(0, limits.find(" slave")),
            "normal " + std::to_string(OutputHardLimit(bulk)) + " " +
                std::to_string(OutputSoftLimit(bulk)) + " " + std::to_string(kOutputSoftSeconds));
  EXPECT_EQ(testing::ConfigValue(*admin_, "maxmemory-clients"), std::to_string(kMaxMemory / 8));
  EXPECT_EQ(testing::ConfigValue(*admin_, "acllog-max-len"), std::to_string(kAclLogLength));
}

// Issue 48's fifth attack: failed logins under made-up names and an honest worker's, to push
// the attacker's refusals out of the ACL LOG and have the honest worker named.
TEST_F(RedisGuardTest, FailedLoginsAreBlamedOnlyOnTheSessionThatTriedThem) {
  auto evil = Client("evil");
  ASSERT_TRUE(evil->Connect().ok());
  // Raw argument vectors: what a hostile worker sends.
  for (const auto& refused : std::vector<std::vector<std::string>>{
           {"SET", keys_.Config(), "x"}, {"DEL", keys_.Current()}, {"KEYS", "*"}}) {
    auto r = evil->Command(std::vector<std::string_view>(refused.begin(), refused.end()));
    ASSERT_TRUE(r.ok() && r.value().IsError());
  }
  RedisOptions learner_options = Client("learner")->Options();
  learner_options.max_string_bytes = 0;
  RedisClient learner(learner_options);
  RedisGuard guard(keys_);
  guard.Check(learner);  // counts and empties the log
  EXPECT_EQ(Stat(std::string(kRefusedByField) + "evil"), "3");
  // More failed logins on its own session than the log keeps, then under an honest name.
  for (int i = 0; i < kAclLogLength + 100; ++i) {
    auto r = evil->Command({"AUTH", "made-up-" + std::to_string(i), "x"});
    ASSERT_TRUE(r.ok() && r.value().IsError());
  }
  for (int i = 0; i < 3; ++i) evil->Command({"AUTH", keys_.WorkerUser("w1"), "x"});
  // And on a connection that never logged in (a raw connection: the client itself would
  // stop at the first refused login).
  RedisOptions none;
  none.endpoint.port = server_->Port();
  RedisClient anonymous(none);
  for (int i = 0; i < 5; ++i) anonymous.Command({"AUTH", "nobody-" + std::to_string(i), "x"});
  for (int i = 0; i < 2; ++i) anonymous.Command({"AUTH", keys_.WorkerUser("w2"), "x"});
  auto status = ClusterStatus(learner, keys_);  // from the live log
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("refused by Redis (ACL LOG) by worker: evil "), std::string::npos)
      << status.value();
  EXPECT_NE(status.value().find("failed logins of no worker's session (anyone may try any name; "
                                "nobody blamed): 7, under workers' names: w2 2\n"),
            std::string::npos)
      << status.value();
  guard.Check(learner);
  const long long evil_refused = std::stoll(Stat(std::string(kRefusedByField) + "evil"));
  // The log kept its newest 1,024 entries: the attacker's made-up names beyond that were
  // pushed out before the learner read it, not onto anyone else.
  EXPECT_GE(evil_refused, 3 + kAclLogLength - 10);
  EXPECT_EQ(Stat(std::string(kRefusedByField) + "w1"), "");
  EXPECT_EQ(Stat(std::string(kRefusedByField) + "w2"), "");
  EXPECT_EQ(Stat(kFailedLoginsField), "7");
  EXPECT_EQ(Stat(std::string(kLoginsAsField) + "w2"), "2");
  EXPECT_EQ(Stat(std::string(kLoginsAsField) + "w1"), "");
  status = ClusterStatus(learner, keys_);  // from the learner's counts
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("refused by Redis (ACL LOG) by worker: evil " +
                                std::to_string(evil_refused) + "\n"),
            std::string::npos)
      << status.value();
  EXPECT_EQ(status.value().find(" w1 "), std::string::npos) << status.value();
}

// Issue 48's second attack: one worker's user holding many connections.
TEST_F(RedisGuardTest, AWorkerHoldingMoreThanItsShareOfConnectionsIsCutOffAndNamed) {
  std::vector<std::unique_ptr<RedisClient>> held;
  for (int i = 0; i < kMaxWorkerConnections + 4; ++i) {
    held.push_back(Client("evil"));
    ASSERT_TRUE(held.back()->Connect().ok());
  }
  auto w1 = Client("w1");
  ASSERT_TRUE(w1->Connect().ok());
  RedisOptions learner_options = Client("learner")->Options();
  learner_options.max_string_bytes = 0;
  RedisClient learner(learner_options);
  auto status = ClusterStatus(learner, keys_);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("workers holding more than 8 connections now: evil 12\n"),
            std::string::npos)
      << status.value();
  RedisGuard guard(keys_);
  guard.Check(learner);
  EXPECT_EQ(Stat(std::string(kConnectionsCutField) + "evil"), "1");
  for (auto& c : held) EXPECT_FALSE(Ping(*c).ok());
  EXPECT_TRUE(Ping(*w1).ok());  // the honest worker keeps its connection
  const std::vector<std::string> notes = guard.TakeNotes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("worker evil held 12 connections to Redis (more than 8): closed 12"),
            std::string::npos)
      << notes[0];
  status = ClusterStatus(learner, keys_);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("connections closed by the learner (more than 8 at once) by "
                                "worker: evil 1\n"),
            std::string::npos)
      << status.value();
}

// A full Redis or one at its connection limit is something to wait for; refused credentials
// are not (issue 48: an honest worker took "max number of clients" for bad credentials).
TEST_F(RedisGuardTest, OnlyRefusedCredentialsAreBadInput) {
  auto w1 = Client("w1");
  ASSERT_TRUE(w1->Connect().ok());
  ASSERT_TRUE(ConfigSet(*admin_, "maxmemory", "1").ok());
  const util::Status full = SetValueWithTtl(*w1, keys_.Worker("w1"), "{}", 1000);
  ASSERT_FALSE(full.ok());
  EXPECT_TRUE(Unavailable(*w1, full.error_value()));
  EXPECT_EQ(RedisTrouble(*w1, full.error_value()), "Redis is full (OOM, past its maxmemory)");
  ASSERT_TRUE(ConfigSet(*admin_, "maxmemory", std::to_string(kMaxMemory)).ok());
  EXPECT_TRUE(SetValueWithTtl(*w1, keys_.Worker("w1"), "{}", 1000).ok());
  // At the connection limit: a failure, not refused credentials.
  auto clients = ServerInfo(*admin_, "clients");
  ASSERT_TRUE(clients.ok());
  ASSERT_TRUE(ConfigSet(*admin_, "maxclients", clients.value()["connected_clients"]).ok());
  auto late = Client("w2");
  const util::Status limit = late->Connect();
  ASSERT_FALSE(limit.ok());
  EXPECT_EQ(limit.kind(), util::ErrorKind::kFailure) << limit.error();
  EXPECT_TRUE(Unavailable(*late, limit.error_value()));
  ASSERT_TRUE(ConfigSet(*admin_, "maxclients", "10000").ok());
  EXPECT_TRUE(late->Connect().ok());
  // Wrong credentials: bad input, saying so.
  RedisOptions wrong = late->Options();
  wrong.auth.password = "wrong";
  const util::Status refused = RedisClient(wrong).Connect();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.kind(), util::ErrorKind::kBadInput);
  EXPECT_NE(refused.error().find("WRONGPASS"), std::string::npos) << refused.error();
}

}  // namespace
}  // namespace veletas::cluster
