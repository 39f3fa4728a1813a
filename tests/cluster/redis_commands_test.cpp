// The typed Redis commands (redis_commands.h, streams.h, redis_batch.h) against a real
// redis-server: each sends its command and parses the reply into the documented value, and a
// refused command is told apart from a lost connection.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/transport/redis_batch.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "tests/cluster/cluster_test_util.h"

namespace veletas::cluster {
namespace {

using RedisCommandsTest = testing::RedisTest;

TEST_F(RedisCommandsTest, StringsAndKeys) {
  EXPECT_EQ(GetValue(*redis_, "k").value(), std::nullopt);
  const std::string binary("a\0b\r\n", 5);
  ASSERT_TRUE(SetValue(*redis_, "k", binary).ok());
  EXPECT_EQ(GetValue(*redis_, "k").value(), binary);
  EXPECT_FALSE(SetValueIfAbsent(*redis_, "k", "other").value());
  EXPECT_EQ(GetValue(*redis_, "k").value(), binary);
  EXPECT_TRUE(SetValueIfAbsent(*redis_, "lock", "me", 60'000).value());
  ASSERT_TRUE(SetValueWithTtl(*redis_, "beat", "{}", 60'000).ok());
  for (const char* key : {"lock", "beat"}) {
    // Inspection only (the cluster never reads a TTL): both keys expire within a minute.
    const long long ttl = redis_->Call({"PTTL", key}).value().integer;
    EXPECT_GT(ttl, 0) << key;
    EXPECT_LE(ttl, 60'000) << key;
  }
  EXPECT_TRUE(KeyExists(*redis_, "k").value());
  EXPECT_EQ(KeyType(*redis_, "k").value(), "string");
  EXPECT_EQ(KeyType(*redis_, "missing").value(), "none");
  ASSERT_TRUE(RenameKey(*redis_, "k", "moved").ok());
  EXPECT_FALSE(KeyExists(*redis_, "k").value());
  // Renaming a missing key is refused by the server: a failure on a live connection.
  const util::Status missing = RenameKey(*redis_, "k", "elsewhere");
  EXPECT_FALSE(missing.ok());
  EXPECT_TRUE(Refused(*redis_, missing));
  EXPECT_EQ(DeleteKeys(*redis_, {"moved", "lock", "nothing"}).value(), 2);
  EXPECT_TRUE(Ping(*redis_).ok());
}

TEST_F(RedisCommandsTest, HashesSetsListsAndScripts) {
  ASSERT_TRUE(HashSet(*redis_, "h", {{"id", "abc"}, {"generation", "3"}}).ok());
  EXPECT_EQ(HashGet(*redis_, "h", "id").value(), "abc");
  EXPECT_EQ(HashGet(*redis_, "h", "none").value(), std::nullopt);
  EXPECT_EQ(HashGetFields(*redis_, "h", {"generation", "none", "id"}).value(),
            (std::vector<std::optional<std::string>>{"3", std::nullopt, "abc"}));
  EXPECT_EQ(HashGetFields(*redis_, "missing", {"id", "generation"}).value(),
            (std::vector<std::optional<std::string>>{std::nullopt, std::nullopt}));
  EXPECT_EQ(HashIncrBy(*redis_, "h", "generation", 4).value(), 7);
  EXPECT_EQ(HashGetAll(*redis_, "h").value(),
            (std::map<std::string, std::string>{{"generation", "7"}, {"id", "abc"}}));
  EXPECT_EQ(HashKeys(*redis_, "h").value().size(), 2u);
  EXPECT_TRUE(HashGetAll(*redis_, "missing").value().empty());
  ASSERT_TRUE(SetAddMember(*redis_, "s", "w1").ok());
  ASSERT_TRUE(SetAddMember(*redis_, "s", "w2").ok());
  ASSERT_TRUE(SetRemoveMember(*redis_, "s", "w1").ok());
  EXPECT_EQ(SetMembers(*redis_, "s").value(), std::vector<std::string>{"w2"});
  RedisBatch batch;
  batch.ListAppend("l", {"a", "b"}).ListPush("l", "first").ListTrim("l", 0, 1);
  ASSERT_TRUE(batch.Send(*redis_).ok());
  EXPECT_EQ(ListLength(*redis_, "l").value(), 2);
  EXPECT_EQ(ListRange(*redis_, "l", 0, -1).value(), (std::vector<std::string>{"first", "a"}));
  EXPECT_EQ(RunScript(*redis_, "return tonumber(ARGV[1]) + #KEYS", {"x", "y"}, {"40"}).value(), 42);
  EXPECT_FALSE(RunScript(*redis_, "this is not lua", {}, {}).ok());
}

TEST_F(RedisCommandsTest, AdminCommands) {
  EXPECT_EQ(ConfigGet(*redis_, "no-such-setting").value(), std::nullopt);
  ASSERT_TRUE(ConfigSet(*redis_, "maxmemory-policy", "noeviction").ok());
  EXPECT_EQ(ConfigGet(*redis_, "maxmemory-policy").value(), "noeviction");
  const auto info = ServerInfo(*redis_, "server");
  ASSERT_TRUE(info.ok()) << info.error();
  EXPECT_FALSE(info.value().at("redis_version").empty());
  EXPECT_EQ(info.value().count("# Server"), 0u);
  ASSERT_TRUE(AclSetUser(*redis_, "w", {"reset", "on", ">pw", "~w:*", "+get"}).ok());
  RedisOptions o = options_;
  o.auth = {"w", "pw"};
  RedisClient w(o);
  EXPECT_TRUE(GetValue(w, "w:x").ok());
  const util::Status refused = SetValue(w, "w:x", "1");
  EXPECT_TRUE(Refused(w, refused));
  EXPECT_FALSE(SetValue(w, "w:x", "2").ok());
  const auto log = AclLog(*redis_, 100);
  ASSERT_TRUE(log.ok()) << log.error();
  ASSERT_FALSE(log.value().empty());
  EXPECT_EQ(log.value()[0].username, "w");
  EXPECT_EQ(log.value()[0].reason, "command");
  EXPECT_EQ(log.value()[0].object, "set");
  EXPECT_EQ(log.value()[0].count, 2);
  ASSERT_TRUE(AclDeleteUser(*redis_, "w").ok());
  EXPECT_FALSE(Ping(w).ok());
  EXPECT_FALSE(w.Connected());  // its connection was closed
}

TEST_F(RedisCommandsTest, StreamsGroupsAndPendingEntries) {
  ASSERT_TRUE(EnsureGroup(*redis_, "a", "g").ok());
  ASSERT_TRUE(EnsureGroup(*redis_, "b", "g").ok());
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i)
    ids.push_back(AddEntry(*redis_, "a", {{"i", std::to_string(i)}}).value());
  ASSERT_TRUE(AddEntry(*redis_, "b", {{"i", "b0"}}).ok());
  EXPECT_EQ(StreamLength(*redis_, "a").value(), 4);
  const auto first = RangeEntries(*redis_, "a", "-", "+", 1).value();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].id, ids[0]);
  EXPECT_EQ(RangeEntries(*redis_, "a", "(" + ids[1], "+").value().size(), 2u);
  // One entry of each stream, tagged with its stream, in one read.
  const auto read = ReadGroupStreams(*redis_, "g", "c1", 1, 0, {"a", "b"}).value();
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].stream, "a");
  EXPECT_EQ(read[0].id, ids[0]);
  EXPECT_EQ(read[1].stream, "b");
  EXPECT_EQ(*read[1].Field("i"), "b0");
  ASSERT_EQ(ReadGroup(*redis_, "a", "g", "c2", 2, 0, false).value().size(), 2u);
  const auto groups = StreamGroups(*redis_, "a").value();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].name, "g");
  EXPECT_EQ(groups[0].last_delivered, ids[2]);
  EXPECT_EQ(groups[0].pending, 3);
  EXPECT_EQ(groups[0].lag, 1);
  const PendingSummary summary = Pending(*redis_, "a", "g").value();
  EXPECT_EQ(summary.count, 3);
  EXPECT_EQ(summary.min_id, ids[0]);
  EXPECT_EQ(summary.max_id, ids[2]);
  EXPECT_EQ(summary.consumers,
            (std::vector<std::pair<std::string, long long>>{{"c1", 1}, {"c2", 2}}));
  const auto of_c2 = PendingEntries(*redis_, "a", "g", "-", "+", 10, "c2").value();
  ASSERT_EQ(of_c2.size(), 2u);
  EXPECT_EQ(of_c2[0].id, ids[1]);
  EXPECT_EQ(of_c2[0].consumer, "c2");
  EXPECT_EQ(of_c2[0].deliveries, 1);
  EXPECT_EQ(PendingEntries(*redis_, "a", "g", ids[0], ids[0], 1).value()[0].consumer, "c1");
  EXPECT_EQ(Pending(*redis_, "b", "g").value().consumers.size(), 1u);
  EXPECT_EQ(DeleteEntries(*redis_, "a", {ids[3]}).value(), 1);
  EXPECT_EQ(DeleteEntries(*redis_, "a", {}).value(), 0);
  EXPECT_EQ(TrimBelow(*redis_, "a", ids[2]).value(), 2);
  EXPECT_EQ(StreamLength(*redis_, "a").value(), 1);
  // A group that does not exist: refused by the server, the connection kept.
  auto nogroup = ReadGroupStreams(*redis_, "none", "c", 1, 0, {"a"});
  EXPECT_TRUE(Refused(*redis_, nogroup));
  EXPECT_TRUE(Refused(*redis_, StreamGroups(*redis_, "missing")));
}

TEST_F(RedisCommandsTest, ABatchAnswersInOrderWithErrorRepliesAsValues) {
  ASSERT_TRUE(SetValue(*redis_, "text", "x").ok());
  RedisBatch batch;
  batch.Ping()
      .HashIncrBy("text", "f", 1)  // WRONGTYPE
      .Multi()
      .SetValue("k", "v")
      .HashSet("h", {{"f", "1"}})
      .Exec()
      .GetValue("k")
      .KeyExists("h")
      .StreamAdd("s", {{"e", "1"}})
      .StreamAddCapped("s", 1000, {{"e", "2"}})
      .StreamLength("s")
      .DeleteKey("text");
  EXPECT_EQ(batch.Size(), 12u);
  const auto replies = batch.Send(*redis_);
  ASSERT_TRUE(replies.ok()) << replies.error();
  const std::vector<RedisValue>& r = replies.value();
  ASSERT_EQ(r.size(), 12u);
  EXPECT_EQ(r[0].str, "PONG");
  EXPECT_TRUE(r[1].IsError());
  EXPECT_EQ(r[1].str.rfind("WRONGTYPE", 0), 0u) << r[1].str;
  EXPECT_EQ(r[5].elements.size(), 2u);  // EXEC: the transaction's two replies
  EXPECT_EQ(r[6].str, "v");
  EXPECT_EQ(r[7].integer, 1);
  EXPECT_EQ(r[10].integer, 2);
  EXPECT_EQ(r[11].integer, 1);
  RedisBatch stored;
  const auto ids = RangeEntries(*redis_, "s", "-", "+").value();
  ASSERT_EQ(ids.size(), 2u);
  stored.StreamTrimBelow("s", ids[1].id).StreamAck("s", "g", {ids[1].id});
  const auto trimmed = stored.Send(*redis_);
  ASSERT_TRUE(trimmed.ok());
  EXPECT_EQ(trimmed.value()[0].integer, 1);
  EXPECT_EQ(trimmed.value()[1].integer, 0);  // no group "g" on "s": nothing acknowledged
}

}  // namespace
}  // namespace veletas::cluster
