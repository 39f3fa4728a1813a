// Redis's log as `cluster status --redis-log` reads it (cluster/tools/redis_log.h): the lines
// Redis 7.0 writes when it closes a connection for its unread replies, who can be blamed for
// them, lines that only look like them; and issue 48's third attack (pipelined requests whose
// replies are never read) against a real redis-server with the setup of `veletas cluster
// setup`: Redis closes the connection, and `cluster status` names the attacker from Redis's
// log and no honest worker.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "cluster/tools/redis_log.h"
#include "cluster/tools/status.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"
#include "tests/cluster/cluster_test_util.h"

namespace veletas::cluster {
namespace {

// A log line of Redis 7.0 closing connection `id` of `user` holding `omem` unread bytes.
std::string Evicting(int id, const std::string& user, long long omem) {
  return "6661:M 07 Dec 2026 23:00:53.654 * Evicting client: id=" + std::to_string(id) +
         " addr=127.0.0.1:43922 laddr=127.0.0.1:48091 fd=15 name= age=0 idle=0 flags=N db=0 "
         "sub=0 psub=0 ssub=0 multi=-1 qbuf=20474 qbuf-free=0 argv-mem=90 multi-mem=0 rbs=16384 "
         "rbp=0 obl=0 oll=812 omem=" +
         std::to_string(omem) + " tot-mem=16687002 events=rw cmd=lrange user=" + user +
         " redir=-1 resp=2";
}
std::string OutputLimit(int id, const std::string& user) {
  return "6661:M 07 Dec 2026 23:00:54.001 # Client id=" + std::to_string(id) +
         " addr=127.0.0.1:43930 laddr=127.0.0.1:48091 fd=16 name= age=1 idle=0 flags=N db=0 "
         "sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=20474 argv-mem=0 multi-mem=0 rbs=1024 "
         "rbp=0 obl=0 oll=40 omem=1048576 tot-mem=1070000 events=rw cmd=lrange user=" +
         user +
         " redir=-1 resp=2 scheduled to be closed ASAP for overcoming of output buffer limits.";
}

RedisClosures Read(const std::string& log) {
  std::istringstream in(log);
  return ReadRedisClosures(RunKeys("t"), in);
}

TEST(RedisLogTest, NamesAWorkerOnlyForItsOwnUnreadReplies) {
  const RedisClosures c =
      Read("6661:M 07 Dec 2026 23:00:50.000 * Ready to accept connections\n" +
           Evicting(84, "vz:t:evil", 16649248) + "\n" +  // past any honest reply: blamed
           OutputLimit(85, "vz:t:evil") + "\n" +         // closed for its output limit: blamed
           Evicting(80, "vz:t:w2", 0) + "\n" +           // small, evicted under pressure: nobody
           Evicting(81, "vz:t:w1", kMaxWorkerReplyBytes) + "\n" +  // one chunk in flight: nobody
           Evicting(82, "vz:other:w1", 1 << 30) + "\n" +           // another run's worker
           Evicting(83, "vz-learner-t", 1 << 30) + "\n");
  ASSERT_EQ(c.unread_by_worker.size(), 1u);
  EXPECT_EQ(c.unread_by_worker.at("evil"), 2);
  EXPECT_EQ(c.evicted_small, 2);
  EXPECT_EQ(c.unattributed, 0);
}

TEST(RedisLogTest, CountsEachConnectionOncePerRedisProcess) {
  const std::string restarted = Evicting(84, "vz:t:evil", 1 << 25).replace(0, 4, "7001");
  const RedisClosures c = Read(Evicting(84, "vz:t:evil", 1 << 25) + "\n" +
                               OutputLimit(84, "vz:t:evil") + "\n" + restarted + "\n");
  EXPECT_EQ(c.unread_by_worker.at("evil"), 2);  // id 84 of process 6661, id 84 of 7001
}

// What a client sent is quoted inside some of Redis's messages (a query buffer's first bytes,
// say): a closure counts only as the message that starts its line.
TEST(RedisLogTest, IgnoresClosuresQuotedInsideOtherMessages) {
  const std::string quoted = Evicting(9, "vz:t:w1", 1 << 30);
  const RedisClosures c = Read(
      "6661:M 07 Dec 2026 23:00:55.000 # Closing client that reached max query buffer length: "
      "id=90 user=vz:t:evil (qbuf initial bytes: \"" +
      quoted.substr(quoted.find("Evicting")) + "\")\n" + quoted.substr(quoted.find("Evicting")) +
      "\n" + "garbage\n\n" + OutputLimit(91, "vz:t:w1").substr(0, 200) + "\n");
  EXPECT_TRUE(c.unread_by_worker.empty());
  EXPECT_EQ(c.evicted_small, 0);
}

TEST(RedisLogTest, ALineCutBeforeItsUserBlamesNobody) {
  const std::string cut = Evicting(83, "vz:t:evil", 1 << 25);
  const std::string line = Evicting(84, "vz:t:evil", 1 << 25);
  const RedisClosures c = Read(cut.substr(0, cut.find(" user=")) + "\n" +
                               std::string(kMaxRedisLogLine + 10, 'x') + "\n" + line + "\n");
  EXPECT_EQ(c.unattributed, 1);
  EXPECT_EQ(c.unread_by_worker.at("evil"), 1);  // the next line, after the overlong one
}

TEST(RedisLogTest, AMissingLogIsBadInputNamingIt) {
  auto read = ReadRedisLogFile(RunKeys("t"), "/nonexistent/redis.log");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error_value().kind, util::ErrorKind::kBadInput);
  EXPECT_NE(read.error().find("/nonexistent/redis.log"), std::string::npos) << read.error();
}

class RedisLogServerTest : public testing::SetupServerTest {};

// A raw connection to 127.0.0.1:port logged in as `user` (the replies left unread).
int RawLogin(int port, const RedisAuth& auth) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -1;
  const std::string login = "AUTH " + auth.user + " " + auth.password + "\r\n";
  if (::send(fd, login.data(), login.size(), 0) != static_cast<ssize_t>(login.size())) return -1;
  return fd;
}

// Issue 48's third attack, small: 64 requests for a 1 MiB network chunk, never read, against
// client memory of 16 MiB (maxmemory 128 MiB / 8).
TEST_F(RedisLogServerTest, StatusNamesTheWorkerRedisClosedForUnreadReplies) {
  ASSERT_NO_FATAL_FAILURE(StartSetupServer(int64_t{128} << 20));
  auto admin = Client("admin");
  for (const char* w : {"w1", "evil"}) {
    ASSERT_TRUE(AddWorkerUser(dir_.Str(), "t", w).ok());
    ASSERT_TRUE(ApplyWorkerChange(*admin, dir_.Str(), "t", w, true).ok());
  }
  const RunKeys keys("t");
  const std::string model = keys.Model("n");
  auto pushed = admin->Command({"RPUSH", model, std::string(kModelChunkBytes, 'm')});
  ASSERT_TRUE(pushed.ok() && !pushed.value().IsError());
  // The honest worker reads the chunk, as it does.
  auto w1 = Client("w1");
  auto chunk = w1->Command({"LRANGE", model, "0", "-1"});
  ASSERT_TRUE(chunk.ok() && chunk.value().elements.size() == 1u);

  auto auth = LoadRedisAuth(AuthFile(dir_.Str(), "evil"));
  ASSERT_TRUE(auth.ok()) << auth.error();
  const int fd = RawLogin(server_->Port(), auth.value());
  ASSERT_GE(fd, 0);
  std::string requests;
  for (int i = 0; i < 64; ++i) requests += "LRANGE " + model + " 0 -1\r\n";
  ASSERT_EQ(::send(fd, requests.data(), requests.size(), 0), static_cast<ssize_t>(requests.size()));
  // Wait for Redis to close it and log so (an event, not a time bound: 60 s at most).
  const std::string log = server_->Dir() + "/redis.log";
  RedisClosures closures;
  for (int i = 0; i < 600 && closures.unread_by_worker.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto read = ReadRedisLogFile(keys, log);
    ASSERT_TRUE(read.ok()) << read.error();
    closures = read.value();
  }
  ::close(fd);
  ASSERT_EQ(closures.unread_by_worker.size(), 1u);
  EXPECT_EQ(closures.unread_by_worker.at("evil"), 1);
  EXPECT_TRUE(Ping(*w1).ok());  // the honest worker's connection stays

  auto learner = Client("learner");
  auto status = ClusterStatus(*learner, keys, log);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("connections closed by Redis for unread replies (from its log " +
                                log + ") by worker: evil 1\n"),
            std::string::npos)
      << status.value();
  EXPECT_EQ(status.value().find(" w1 "), std::string::npos) << status.value();
  // Without the log, nothing of it; with a log that is not there, bad input naming it.
  status = ClusterStatus(*learner, keys);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(status.value().find("for unread replies"), std::string::npos) << status.value();
  status = ClusterStatus(*learner, keys, log + ".missing");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find(log + ".missing"), std::string::npos) << status.error();
}

}  // namespace
}  // namespace veletas::cluster
