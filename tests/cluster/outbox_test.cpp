// The worker's spool: games stay on disk until the learner has stored them (the stream's
// Stored mark, read on the connection that sent them); a restarted worker sends what it
// left; a Redis that lost its data gets every game not yet stored again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "cluster/worker/outbox.h"
#include "tests/cluster/cluster_test_util.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;
using OutboxTest = testing::RedisTest;

size_t Files(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".vze";
  return n;
}

// What the learner does after storing entries (IngestSession::Trim): acknowledge them and
// publish the id below which all are stored.
void StoreFirst(RedisClient& redis, const RunKeys& keys, const std::string& stream, int count) {
  ASSERT_TRUE(EnsureGroup(redis, stream, kLearnerGroup).ok());
  auto read = ReadGroup(redis, stream, kLearnerGroup, kLearnerConsumer, count, 0, false);
  ASSERT_TRUE(read.ok()) << read.error();
  std::vector<std::string> ids;
  for (const StreamEntry& e : read.value()) ids.push_back(e.id);
  ASSERT_EQ(ids.size(), static_cast<size_t>(count));
  ASSERT_TRUE(Ack(redis, stream, kLearnerGroup, ids).ok());
  auto below = AcknowledgedBelow(redis, stream, kLearnerGroup);
  ASSERT_TRUE(below.ok()) << below.error();
  ASSERT_TRUE(SetValue(redis, keys.Stored(stream), below.value()).ok());
}

TEST_F(OutboxTest, KeepsGamesUntilTheLearnerStoredThemAndResendsAfterALoss) {
  testing::TempDir dir;
  const RunKeys keys("t");
  auto box = Outbox::Open(dir.File("outbox"));
  ASSERT_TRUE(box.ok()) << box.error();
  Outbox& o = *box.value();
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(o.Put(EntryKind::kSelfplay, "game " + std::to_string(i)).ok());
  auto arena = o.Put(EntryKind::kArena, "arena game");
  ASSERT_TRUE(arena.ok());
  EXPECT_FALSE(o.Sent(arena.value()));
  EXPECT_EQ(o.Waiting(), 4u);
  auto sent = o.Flush(*redis_, keys, "w1");
  ASSERT_TRUE(sent.ok()) << sent.error();
  EXPECT_EQ(sent.value(), 4);
  EXPECT_TRUE(o.Sent(arena.value()));
  EXPECT_EQ(StreamLength(*redis_, keys.WorkerSelfplay("w1")).value(), 3);
  EXPECT_EQ(StreamLength(*redis_, keys.WorkerArena("w1")).value(), 1);
  const auto entries = RangeEntries(*redis_, keys.WorkerSelfplay("w1"), "-", "+", 1).value();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].Field("w"), nullptr);    // the stream names the sender
  EXPECT_EQ(*entries[0].Field("e"), "game 0");  // in the order written
  // In Redis but not stored by the learner: the files stay, however long that takes.
  ASSERT_TRUE(o.Flush(*redis_, keys, "w1").ok());
  EXPECT_EQ(Files(dir.File("outbox")), 4u);
  EXPECT_EQ(o.Unconfirmed(), 4u);
  // The learner stored the first two self-play games: their files go, the others stay.
  StoreFirst(*redis_, keys, keys.WorkerSelfplay("w1"), 2);
  ASSERT_TRUE(o.Flush(*redis_, keys, "w1").ok());
  EXPECT_EQ(Files(dir.File("outbox")), 2u);
  EXPECT_EQ(o.Unconfirmed(), 2u);

  // Redis restarts without its data (a power cut with its AOF lost, or a new machine).
  server_->Kill();
  fs::remove_all(fs::path(server_->Dir()) / "appendonlydir");
  ASSERT_TRUE(server_->Restart());
  EXPECT_FALSE(o.Flush(*redis_, keys, "w1").ok());  // the connection broke: nothing confirmed
  EXPECT_EQ(Files(dir.File("outbox")), 2u);
  EXPECT_EQ(StreamLength(*redis_, keys.WorkerSelfplay("w1")).value(), 0);
  // Reconnected: everything unconfirmed is sent again.
  sent = o.Flush(*redis_, keys, "w1");
  ASSERT_TRUE(sent.ok()) << sent.error();
  EXPECT_EQ(sent.value(), 2);
  auto again = RangeEntries(*redis_, keys.WorkerSelfplay("w1"), "-", "+").value();
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(*again[0].Field("e"), "game 2");
  EXPECT_EQ(StreamLength(*redis_, keys.WorkerArena("w1")).value(), 1);
  // Once the learner has stored everything, the spool is empty.
  StoreFirst(*redis_, keys, keys.WorkerSelfplay("w1"), 1);
  StoreFirst(*redis_, keys, keys.WorkerArena("w1"), 1);
  ASSERT_TRUE(o.Flush(*redis_, keys, "w1").ok());
  EXPECT_EQ(Files(dir.File("outbox")), 0u);
  EXPECT_EQ(o.Unconfirmed(), 0u);
}

// A worker user made before the Stored marks existed may not read them: the worker stops
// with bad input that says how to renew its user, and keeps its games.
TEST_F(OutboxTest, AUserThatMayNotReadTheMarksIsToldToRenewIt) {
  testing::TempDir dir;
  const RunKeys keys("t");
  ASSERT_TRUE(AclSetUser(*redis_, "old",
                         {"on", ">pw", "resetkeys", "-@all", "+ping", "+auth", "+xadd",
                          "%W~" + keys.WorkerSelfplay("w")})
                  .ok());
  RedisOptions options = redis_->Options();
  options.auth.user = "old";
  options.auth.password = "pw";
  RedisClient old(options);
  auto box = Outbox::Open(dir.File("outbox"));
  ASSERT_TRUE(box.ok());
  ASSERT_TRUE(box.value()->Put(EntryKind::kSelfplay, "a").ok());
  auto sent = box.value()->Flush(old, keys, "w");
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.exit_code(), 2);
  EXPECT_NE(sent.error().find("remove-worker w` and `add-worker w`"), std::string::npos)
      << sent.error();
  EXPECT_EQ(Files(dir.File("outbox")), 1u);
}

TEST_F(OutboxTest, ARestartedWorkerSendsItsSpoolFirst) {
  testing::TempDir dir;
  const RunKeys keys("t");
  {
    auto box = Outbox::Open(dir.File("outbox"));
    ASSERT_TRUE(box.ok());
    ASSERT_TRUE(box.value()->Put(EntryKind::kSelfplay, "a").ok());
    ASSERT_TRUE(box.value()->Put(EntryKind::kSelfplay, "b").ok());
  }  // killed before sending
  std::ofstream(dir.File("outbox/x.vze.tmp.123")) << "torn";
  auto box = Outbox::Open(dir.File("outbox"));
  ASSERT_TRUE(box.ok());
  EXPECT_EQ(box.value()->Waiting(), 2u);
  EXPECT_FALSE(fs::exists(dir.File("outbox/x.vze.tmp.123")));
  ASSERT_EQ(box.value()->Flush(*redis_, keys, "w").value(), 2);
  auto all = RangeEntries(*redis_, keys.WorkerSelfplay("w"), "-", "+").value();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(*all[0].Field("e"), "a");
  EXPECT_EQ(*all[1].Field("e"), "b");
}

// Issue 29: the worker's own stream holds the largest possible id (added with its
// credentials): no XADD * works any more. The worker stops with bad input (exit 2) that says
// so and what to do, instead of failing on every send; its games stay in the spool.
TEST_F(OutboxTest, AStreamThatUsedUpItsIdsStopsTheWorkerWithItsGamesKept) {
  testing::TempDir dir;
  const RunKeys keys("t");
  const std::string max = "18446744073709551615-18446744073709551615";
  // Raw on purpose: the hostile XADD with an explicit id (the cluster only sends XADD *).
  ASSERT_TRUE(redis_->Call({"XADD", keys.WorkerSelfplay("w"), max, "e", "x"}).ok());
  auto box = Outbox::Open(dir.File("outbox"));
  ASSERT_TRUE(box.ok());
  ASSERT_TRUE(box.value()->Put(EntryKind::kSelfplay, "a").ok());
  ASSERT_TRUE(box.value()->Put(EntryKind::kArena, "b").ok());
  auto sent = box.value()->Flush(*redis_, keys, "w");
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.exit_code(), 2);
  EXPECT_NE(sent.error().find("stream " + keys.WorkerSelfplay("w") + " has used up its ids"),
            std::string::npos)
      << sent.error();
  EXPECT_NE(sent.error().find("remove-worker w"), std::string::npos) << sent.error();
  EXPECT_EQ(Files(dir.File("outbox")), 2u);
  EXPECT_EQ(box.value()->Waiting(), 2u);
  EXPECT_EQ(StreamLength(*redis_, keys.WorkerSelfplay("w")).value(), 1);
}

}  // namespace
}  // namespace veletas::cluster
