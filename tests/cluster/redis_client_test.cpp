// The Redis client against a real redis-server: credentials, binary-safe values, error
// replies, pipelining, reconnection after the server restarted (also while it loads its
// data), ACL users. RedisClient's own Command/Call/Pipeline are what this file tests, so it
// sends raw argument vectors; the typed commands are tested in redis_commands_test.cpp.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "cluster/transport/redis_client.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "tests/cluster/cluster_test_util.h"

namespace veletas::cluster {
namespace {

TEST(RedisAuthFile, ReadsUserAndPasswordFromAFileOrTheEnvironment) {
  testing::TempDir dir;
  std::ofstream(dir.File("auth")) << "worker s3cret\n";
  auto a = LoadRedisAuth(dir.File("auth"));
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a.value().user, "worker");
  EXPECT_EQ(a.value().password, "s3cret");
  std::ofstream(dir.File("pw")) << "\n  onlypassword  \n";
  auto b = LoadRedisAuth(dir.File("pw"));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.value().user, "");
  EXPECT_EQ(b.value().password, "onlypassword");
  std::ofstream(dir.File("bad")) << "a b c\n";
  EXPECT_FALSE(LoadRedisAuth(dir.File("bad")).ok());
  EXPECT_FALSE(LoadRedisAuth(dir.File("missing")).ok());
  ::setenv("VELETAS_REDIS_AUTH_FILE", dir.File("auth").c_str(), 1);
  auto c = LoadRedisAuth("");
  ::unsetenv("VELETAS_REDIS_AUTH_FILE");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value().user, "worker");
  ::setenv("VELETAS_REDIS_USER", "u", 1);
  ::setenv("VELETAS_REDIS_PASSWORD", "p", 1);
  auto d = LoadRedisAuth("");
  ::unsetenv("VELETAS_REDIS_USER");
  ::unsetenv("VELETAS_REDIS_PASSWORD");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.value().user, "u");
  EXPECT_EQ(d.value().password, "p");
  EXPECT_TRUE(LoadRedisAuth("").value().Empty());
}

using RedisClientTest = testing::RedisTest;

TEST_F(RedisClientTest, BinaryValuesErrorRepliesAndPipelines) {
  std::string binary("a\0b\r\n\xff", 6);
  ASSERT_TRUE(redis_->Call({"SET", "k", binary}).ok());
  auto got = redis_->Call({"GET", "k"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.value().str, binary);
  EXPECT_TRUE(redis_->Call({"GET", "missing"}).value().IsNil());
  auto wrong = redis_->Command({"LPUSH", "k", "x"});  // WRONGTYPE: a value, not a failure
  ASSERT_TRUE(wrong.ok());
  EXPECT_TRUE(wrong.value().IsError());
  EXPECT_FALSE(redis_->Call({"LPUSH", "k", "x"}).ok());
  auto replies = redis_->Pipeline({{"INCR", "n"}, {"INCR", "n"}, {"GET", "n"}});
  ASSERT_TRUE(replies.ok());
  ASSERT_EQ(replies.value().size(), 3u);
  EXPECT_EQ(replies.value()[2].str, "2");
}

TEST_F(RedisClientTest, ReconnectsAfterTheServerRestartedFromItsAof) {
  ASSERT_TRUE(redis_->Call({"SET", "kept", "1"}).ok());
  // appendfsync everysec: the write reached the AOF file (the kernel) before the reply.
  EXPECT_EQ(redis_->Connections(), 1u);
  server_->Kill();
  EXPECT_FALSE(redis_->Call({"GET", "kept"}).ok());
  EXPECT_FALSE(redis_->Connected());
  ASSERT_TRUE(server_->Restart());
  auto got = redis_->Call({"GET", "kept"});
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got.value().str, "1");
  EXPECT_EQ(redis_->Connections(), 2u);
}

// A server restarted from its AOF answers "LOADING" until its data is in memory (slowed here
// with key-load-delay): the client treats that as a server not reachable yet, so a call fails
// with the connection dropped (every caller then waits and retries) instead of as a command
// refused on a live connection; once loaded, the data is all there.
TEST(RedisClientLoading, AServerStillLoadingItsDataIsNotReachableYet) {
  std::string why;
  auto server = test_support::RedisServer::Start(why, "everysec", "key-load-delay 20000");
  ASSERT_NE(server, nullptr) << why;
  RedisOptions options;
  options.endpoint.port = server->Port();
  options.connect_timeout_seconds = 2;
  RedisClient redis(options);
  std::vector<std::vector<std::string>> sets;
  for (int i = 0; i < 100; ++i) sets.push_back({"SET", "k" + std::to_string(i), "v"});
  ASSERT_TRUE(redis.Pipeline(sets).ok());
  // Into the AOF's base file, an RDB (which is what key-load-delay slows).
  ASSERT_TRUE(redis.Call({"BGREWRITEAOF"}).ok());
  for (int i = 0; i < 2000; ++i) {
    auto info = redis.Call({"INFO", "persistence"});
    ASSERT_TRUE(info.ok()) << info.error();
    if (info.value().str.find("aof_rewrite_in_progress:0") != std::string::npos &&
        info.value().str.find("aof_rewrite_scheduled:0") != std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(server->Restart(/*wait=*/false));
  util::Result<RedisValue> got = util::Error{"not tried"};
  for (int i = 0; i < 3000 && !got.ok(); ++i) {  // at most about 60 s
    got = redis.Call({"GET", "k99"});
    if (got.ok()) break;
    EXPECT_FALSE(redis.Connected()) << got.error();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got.value().str, "v");
  auto n = redis.Call({"DBSIZE"});
  ASSERT_TRUE(n.ok()) << n.error();
  EXPECT_EQ(n.value().integer, 100);
}

TEST_F(RedisClientTest, AclUsersAuthenticateAndAreRefusedWithTheirName) {
  ASSERT_TRUE(AclSetUser(*redis_, "w", {"on", ">pw", "~*", "+@all"}).ok());
  RedisOptions o = options_;
  o.auth = {"w", "pw"};
  RedisClient ok(o);
  EXPECT_TRUE(ok.Connect().ok());
  o.auth = {"w", "wrong"};
  RedisClient refused(o);
  util::Status s = refused.Connect();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.kind(), util::ErrorKind::kBadInput);
  EXPECT_NE(s.error().find("\"w\""), std::string::npos) << s.error();
  EXPECT_EQ(s.error().find("wrong"), std::string::npos) << "the password is echoed";
}

TEST_F(RedisClientTest, TrimKeepsPendingAndUndeliveredEntries) {
  const std::string key = "s";
  ASSERT_TRUE(EnsureGroup(*redis_, key, "g").ok());
  ASSERT_TRUE(EnsureGroup(*redis_, key, "g").ok());  // exists: fine
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i)
    ids.push_back(AddEntry(*redis_, key, {{"i", std::to_string(i)}}).value());
  auto read = ReadGroup(*redis_, key, "g", "c", 4, 0, false);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read.value().size(), 4u);
  // Entries 0 and 2 acknowledged, 1 and 3 pending, 4 and 5 not delivered.
  ASSERT_TRUE(Ack(*redis_, key, "g", {ids[0], ids[2]}).ok());
  auto trimmed = TrimAcknowledged(*redis_, key, "g");
  ASSERT_TRUE(trimmed.ok()) << trimmed.error();
  EXPECT_EQ(trimmed.value(), 1);  // only entry 0 lies below the oldest pending one
  ASSERT_TRUE(Ack(*redis_, key, "g", {ids[1], ids[3]}).ok());
  EXPECT_EQ(TrimAcknowledged(*redis_, key, "g").value(), 3);
  EXPECT_EQ(StreamLength(*redis_, key).value(), 2);  // the undelivered ones
  // Pending entries of a silent consumer are claimed after their idle time.
  auto second = ReadGroup(*redis_, key, "g", "dead", 2, 0, false);
  ASSERT_EQ(second.value().size(), 2u);
  EXPECT_TRUE(AutoClaim(*redis_, key, "g", "alive", 60'000, "0-0", 10).value().entries.empty());
  auto claimed = AutoClaim(*redis_, key, "g", "alive", 0, "0-0", 10);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed.value().entries.size(), 2u);
  EXPECT_EQ(*claimed.value().entries[0].Field("i"), "4");
  EXPECT_EQ(TrimAcknowledged(*redis_, key, "g").value(), 0);
}

}  // namespace
}  // namespace veletas::cluster
