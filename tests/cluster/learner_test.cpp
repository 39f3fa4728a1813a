// The learner's side against a real redis-server: hostile entries are rejected and counted
// while the run goes on, every game id is stored once (also across a learner restart and
// across iterations), entries that find an iteration full wait for the next, and one run
// name has one learner.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "cluster/learner/game_store.h"
#include "cluster/learner/learner.h"
#include "cluster/learner/worker_share.h"
#include "cluster/tools/audit.h"
#include "cluster/tools/status.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/streams.h"
#include "cluster/transport/worker_registry.h"
#include "data/sample_dir.h"
#include "tests/cluster/cluster_test_util.h"
#include "tests/cluster/learner_fixture.h"
#include "util/atomic_file.h"
#include "util/sha256.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;
using testing::Bytes;
using testing::PlayGames;
using testing::SelfplayEntry;

TEST_F(LearnerTest, HostileEntriesAreRejectedAndCountedAndTheRunGoesOn) {
  testing::TempDir run;
  auto learner = Learner::Start(Options(run.Str()));
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  auto id = l.Publish(Checkpoint(run.Str(), "net-b"), 1, true);
  ASSERT_TRUE(id.ok()) << id.error();
  EXPECT_EQ(id.value(), util::Sha256Hex("net-b"));
  const std::string old = util::Sha256Hex("net-a");
  const auto games = PlayGames(8);
  ASSERT_EQ(games.size(), 8u);
  std::set<std::string> good_ids;
  std::vector<std::string> good;
  for (int i = 0; i < 6; ++i) {
    Entry e = SelfplayEntry(games[i], id.value(), "good");
    good_ids.insert(ContentId(e));
    good.push_back(Bytes(e));
  }
  // The hostile worker.
  Send("evil", "garbage");
  Send("evil", good[0].substr(0, good[0].size() / 2));  // truncated
  Send("evil", std::string((5 << 20), 'x'));            // oversized
  {
    Entry e = SelfplayEntry(games[6], id.value(), "evil");
    e.game.games[0].record = "a1-a9/a9 " + e.game.games[0].record;
    Send("evil", Bytes(e));  // illegal record
  }
  {
    Entry e = SelfplayEntry(games[6], id.value(), "evil");
    e.game.games[0].winner = static_cast<int8_t>(1 - e.game.games[0].winner);
    Send("evil", Bytes(e));  // wrong outcome
  }
  Send("evil", Bytes(SelfplayEntry(games[6], util::Sha256Hex("made up"), "evil")));  // unknown
  Send("evil", Bytes(SelfplayEntry(games[6], id.value(), "good")));  // names another worker
  Send("good", Bytes(SelfplayEntry(games[7], old, "good")));         // an old network: stale
  for (size_t i = 0; i < good.size(); ++i) {
    Send("good", good[i]);
    if (i == 2) Send("evil", good[i]);  // replayed by someone else: still a duplicate id
    if (i == 3) Send("good", good[i]);  // replayed
  }
  const std::string dir = run.File("samples/iter_0000");
  auto report = l.CollectSelfplay(Request(dir, 6, {id.value()}, {id.value(), old}));
  ASSERT_TRUE(report.ok()) << report.error();
  const IngestCounters& c = report.value().totals.counters;
  EXPECT_EQ(c.accepted, 6);
  EXPECT_EQ(c.stale, 1);
  EXPECT_EQ(c.rejected, 8);  // evil's replay of good[2] names "good" inside: forged
  EXPECT_EQ(c.duplicates, 1);
  for (const char* reason :
       {"oversized", "illegal record", "wrong outcome", "unknown network", "forged"}) {
    EXPECT_GE(c.rejected_by_reason.count(reason), 1u) << reason;
  }
  EXPECT_EQ(c.rejected_by_reason.at("forged"), 2);
  EXPECT_EQ(report.value().games_by_worker.at("good"), 6);
  // Stored: exactly the six good games, once each.
  const auto stored = StoredIds(dir);
  EXPECT_EQ(std::set<std::string>(stored.begin(), stored.end()), good_ids);
  EXPECT_EQ(stored.size(), 6u);
  // Counted in Redis for `cluster status`, logged with the sender, nothing left pending.
  const RunKeys keys("t");
  EXPECT_EQ(HashGet(*redis_, keys.Stats(), "rejected").value(), "8");
  EXPECT_EQ(HashGet(*redis_, keys.Stats(), "rejected:oversized").value(), "1");
  EXPECT_EQ(ListLength(*redis_, keys.Rejections()).value(), 8);
  int evil_lines = 0;
  for (const std::string& line : log_)
    evil_lines += line.find("from worker evil") != std::string::npos;
  EXPECT_EQ(evil_lines, 8);
  // Counted against the owner of the stream, and each in the dead-letter stream with a
  // short reason.
  EXPECT_EQ(HashGet(*redis_, keys.Stats(), "rejected-by:evil").value(), "8");
  EXPECT_FALSE(HashGet(*redis_, keys.Stats(), "rejected-by:good").value());
  const auto dead = RangeEntries(*redis_, keys.Dead(), "-", "+").value();
  ASSERT_EQ(dead.size(), 8u);
  for (const StreamEntry& d : dead) {
    EXPECT_EQ(*d.Field("worker"), "evil");
    EXPECT_LE(d.Field("reason")->size(), kMaxReasonLength);
  }
  for (const char* w : {"good", "evil"}) {
    EXPECT_EQ(Pending(*redis_, keys.WorkerSelfplay(w), kLearnerGroup).value().count, 0);
  }
  EXPECT_TRUE(fs::exists(GameIdsPath(dir)));
}

TEST_F(LearnerTest, AKilledLearnerStoresEachGameOnceAndLeftoversWaitForTheNextIteration) {
  testing::TempDir run;
  const RunKeys keys("t");
  const auto games = PlayGames(14);
  ASSERT_EQ(games.size(), 14u);
  std::string net;
  std::vector<Entry> entries;
  const std::string dir0 = run.File("samples/iter_0000");
  const std::string dir1 = run.File("samples/iter_0001");
  {
    auto learner = Learner::Start(Options(run.Str()));
    ASSERT_TRUE(learner.ok()) << learner.error();
    net = learner.value()->Publish(Checkpoint(run.Str(), "net"), 0, true).value();
    for (const auto& g : games) entries.push_back(SelfplayEntry(g, net, "w"));
    for (int i = 0; i < 12; ++i) Send("w", Bytes(entries[i]));
    // The learner read the first 4 entries and stored them, then was killed before it
    // acknowledged them.
    auto read =
        ReadGroup(*redis_, keys.WorkerSelfplay("w"), kLearnerGroup, kLearnerConsumer, 4, 0, false);
    ASSERT_EQ(read.value().size(), 4u);
    std::vector<std::string> notes;
    data::SampleDirOptions o;
    o.dir = dir0;
    o.games = 10;
    o.games_per_file = 4;
    auto store = GameStore::Open(o, nullptr, notes);
    ASSERT_TRUE(store.ok());
    std::vector<data::IndexedGame> stored;
    for (int i = 0; i < 4; ++i) {
      stored.push_back({0, entries[i].game.samples, entries[i].game.games[0]});
      stored.back().record.id = *data::GameId::FromHex(ContentId(entries[i]));
    }
    ASSERT_TRUE(store.value()->Add(std::move(stored)).ok());
  }
  // The restarted learner: every game once, the duplicates counted.
  auto learner = Learner::Start(Options(run.Str()));
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  ASSERT_EQ(l.Publish(Checkpoint(run.Str(), "net"), 0, true).value(), net);
  auto first = l.CollectSelfplay(Request(dir0, 10, {net}, {net}));
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first.value().resumed, 4);
  EXPECT_EQ(first.value().totals.counters.duplicates, 4);
  EXPECT_EQ(first.value().totals.counters.accepted, 6);
  std::multiset<std::string> ids0 = StoredIds(dir0);
  EXPECT_EQ(ids0.size(), 10u);
  EXPECT_EQ(std::set<std::string>(ids0.begin(), ids0.end()).size(), 10u);
  // The stream keeps entries 10 and 11 only, and the Stored mark tells the worker that every
  // entry below them is stored: it may delete their spooled copies, not those of 10 and 11.
  auto left = RangeEntries(*redis_, keys.WorkerSelfplay("w"), "-", "+").value();
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(*left[0].Field("e"), Bytes(entries[10]));
  EXPECT_EQ(GetValue(*redis_, keys.Stored(keys.WorkerSelfplay("w"))).value(), left[0].id);
  // Entries 10 and 11 found the first iteration full: they wait, pending, for the second.
  // A worker sends a game of the first iteration again (it lost its connection before its
  // spool confirmed it): not stored twice in the run.
  Send("w", Bytes(entries[2]));
  Send("w", Bytes(entries[12]));
  Send("w", Bytes(entries[13]));
  auto second = l.CollectSelfplay(Request(dir1, 4, {net}, {net}));
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second.value().totals.counters.duplicates, 1);
  EXPECT_EQ(second.value().totals.counters.accepted, 4);
  std::multiset<std::string> ids1 = StoredIds(dir1);
  std::set<std::string> expected;
  for (int i = 10; i < 14; ++i) expected.insert(ContentId(entries[i]));
  EXPECT_EQ(std::set<std::string>(ids1.begin(), ids1.end()), expected);
  auto audit = AuditRun(run.Str());
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit.value().games_with_id, 14);
  EXPECT_TRUE(audit.value().duplicates.empty());
}

TEST_F(LearnerTest, OneWorkersBrokenStreamIsMendedWhileTheOthersCarryOn) {
  testing::TempDir run;
  const RunKeys keys("t");
  auto learner = Learner::Start(Options(run.Str()));
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  const std::string net = l.Publish(Checkpoint(run.Str(), "net"), 0, true).value();
  const auto games = PlayGames(6);
  ASSERT_EQ(games.size(), 6u);
  Send("w1", Bytes(SelfplayEntry(games[0], net, "w1")));
  Send("w2", Bytes(SelfplayEntry(games[1], net, "w2")));
  auto first = l.CollectSelfplay(Request(run.File("samples/iter_0000"), 2, {net}, {net}));
  ASSERT_TRUE(first.ok()) << first.error();
  // w1's stream becomes a string (WRONGTYPE), w2's group is gone (NOGROUP); w3 is fine.
  ASSERT_TRUE(DeleteKeys(*redis_, {keys.WorkerSelfplay("w1")}).ok());
  ASSERT_TRUE(SetValue(*redis_, keys.WorkerSelfplay("w1"), "not a stream").ok());
  // Raw on purpose: the cluster never destroys a group (no typed function sends XGROUP DESTROY).
  ASSERT_TRUE(redis_->Call({"XGROUP", "DESTROY", keys.WorkerSelfplay("w2"), kLearnerGroup}).ok());
  ASSERT_TRUE(AddEntry(*redis_, keys.WorkerSelfplay("w2"),
                       {{"e", Bytes(SelfplayEntry(games[2], net, "w2"))}})
                  .ok());
  Send("w3", Bytes(SelfplayEntry(games[3], net, "w3")));
  Send("w3", Bytes(SelfplayEntry(games[4], net, "w3")));
  auto second = l.CollectSelfplay(Request(run.File("samples/iter_0001"), 3, {net}, {net}));
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second.value().games_by_worker.at("w3"), 2);
  EXPECT_EQ(second.value().games_by_worker.at("w2"), 1);
  EXPECT_EQ(second.value().totals.counters.accepted, 3);
  // w1's stream is a stream with the learner's group again; what was there is kept aside.
  EXPECT_EQ(KeyType(*redis_, keys.WorkerSelfplay("w1")).value(), "stream");
  bool logged = false;
  for (const std::string& line : log_) {
    logged |=
        line.find(keys.WorkerSelfplay("w1") + " (worker w1) is a string") != std::string::npos;
  }
  EXPECT_TRUE(logged);
  // Raw on purpose: only this test looks keys up by pattern (the key's name has a time in it).
  const auto aside = redis_->Call({"KEYS", keys.Broken("w1") + ":*"}).value();
  ASSERT_EQ(aside.elements.size(), 1u);
  EXPECT_EQ(GetValue(*redis_, aside.elements[0].str).value(), "not a stream");
  Send("w1", Bytes(SelfplayEntry(games[5], net, "w1")));
  auto third = l.CollectSelfplay(Request(run.File("samples/iter_0002"), 1, {net}, {net}));
  ASSERT_TRUE(third.ok()) << third.error();
  EXPECT_EQ(third.value().games_by_worker.at("w1"), 1);
}

TEST_F(LearnerTest, AnOversizedFieldIsNeverCopiedAndIsRejected) {
  testing::TempDir run;
  const RunKeys keys("t");
  LearnerOptions o = Options(run.Str());
  o.cluster.max_entry_bytes = 1 << 20;
  auto learner = Learner::Start(o);
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  const std::string net = l.Publish(Checkpoint(run.Str(), "net"), 0, true).value();
  const auto games = PlayGames(1);
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(RegisterWorker(*redis_, keys, "evil").ok());
  // A good entry with a 3 MB extra field, and a 3 MB field name.
  const std::string big(3 << 20, '\x01');
  ASSERT_TRUE(AddEntry(*redis_, keys.WorkerSelfplay("evil"),
                       {{"e", Bytes(SelfplayEntry(games[0], net, "evil"))}, {"pad", big}})
                  .ok());
  ASSERT_TRUE(AddEntry(*redis_, keys.WorkerSelfplay("evil"), {{big, "x"}}).ok());
  Send("good", Bytes(SelfplayEntry(games[0], net, "good")));
  auto report = l.CollectSelfplay(Request(run.File("samples/iter_0000"), 1, {net}, {net}));
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report.value().totals.counters.rejected, 2);
  EXPECT_EQ(report.value().totals.counters.rejected_by_reason.at("oversized"), 2);
  EXPECT_EQ(report.value().games_by_worker.at("good"), 1);
}

TEST(BoundedReasonTest, EscapesControlBytesAndCutsLongMessages) {
  EXPECT_EQ(BoundedReason("illegal record: move 3"), "illegal record: move 3");
  EXPECT_EQ(BoundedReason("a\nb\x1b[2Jc"), "a\\x0Ab\\x1B[2Jc");
  const std::string huge = "illegal record: " + std::string(250'000'000 / 1000, '\x07');
  const std::string r = BoundedReason(huge);
  EXPECT_LE(r.size(), kMaxReasonLength);
  EXPECT_EQ(r.rfind("illegal record: \\x07", 0), 0u);
  EXPECT_EQ(r.substr(r.size() - 3), "...");
  for (char c : r) EXPECT_TRUE(c >= 0x20 && c < 0x7f);
}

TEST_F(LearnerTest, AGameIsStoredOnceInCanonicalFormWhateverItsIdsAndPadding) {
  testing::TempDir run;
  auto learner = Learner::Start(Options(run.Str()));
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  const std::string net = l.Publish(Checkpoint(run.Str(), "net"), 0, true).value();
  const auto games = PlayGames(3);
  ASSERT_EQ(games.size(), 3u);
  const Entry first = SelfplayEntry(games[0], net, "w1");
  const std::string canonical = first.game.games[0].record;
  // The same game under three fresh ids, once with its record padded with white space, and
  // once from another worker.
  Entry padded = SelfplayEntry(games[0], net, "w1");
  std::string spaced = "   ";
  for (char c : canonical) spaced += c == ' ' ? std::string(" \t  \n ") : std::string(1, c);
  padded.game.games[0].record = spaced + std::string(1000, ' ');
  Send("w1", Bytes(padded));
  Send("w1", Bytes(first));
  Send("w2", Bytes(SelfplayEntry(games[0], net, "w2")));
  Send("w2", Bytes(SelfplayEntry(games[1], net, "w2")));
  Send("w1", Bytes(SelfplayEntry(games[2], net, "w1")));
  const std::string dir = run.File("samples/iter_0000");
  auto report = l.CollectSelfplay(Request(dir, 3, {net}, {net}));
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report.value().totals.counters.accepted, 3);
  EXPECT_EQ(report.value().totals.counters.duplicates, 2);
  EXPECT_EQ(report.value().games_by_worker.at("w1"), 2);
  EXPECT_EQ(report.value().games_by_worker.at("w2"), 1);
  EXPECT_EQ(report.value().duplicates_by_worker,
            (std::map<std::string, int64_t>{{"w1", 1}, {"w2", 1}}));
  // Counted per worker by the learner, and shown by `cluster status`.
  auto status = ClusterStatus(*redis_, RunKeys("t"));
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_NE(status.value().find("accepted entries by worker: w1 2, w2 1\n"), std::string::npos)
      << status.value();
  EXPECT_NE(status.value().find("duplicate entries by worker: w1 1, w2 1\n"), std::string::npos)
      << status.value();
  // Stored as the canonical record (the padded copy came first).
  bool found = false;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".vzs") continue;
    auto f = data::ReadSampleFile(e.path().string());
    ASSERT_TRUE(f.ok());
    for (const auto& g : f.value().games) {
      EXPECT_EQ(g.record.find("  "), std::string::npos);
      EXPECT_EQ(g.record.find('\t'), std::string::npos);
      if (g.id.Hex() == ContentId(first)) {
        found = true;
        EXPECT_EQ(g.record, canonical);
      }
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(StoredIds(dir).size(), 3u);
}

TEST_F(LearnerTest, ARedisRestartedWithoutItsDataIsRefilledAndTheWorkersGoOn) {
  testing::TempDir run;
  const RunKeys keys("t");
  auto learner = Learner::Start(Options(run.Str()));
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  const std::string old = l.Publish(Checkpoint(run.Str(), "old"), 1, false).value();
  const std::string net = l.Publish(Checkpoint(run.Str(), "net"), 2, true).value();
  const auto games = PlayGames(2);
  ASSERT_EQ(games.size(), 2u);
  Send("w1", Bytes(SelfplayEntry(games[0], net, "w1")));
  ASSERT_TRUE(l.CollectSelfplay(Request(run.File("samples/iter_0000"), 1, {net}, {net})).ok());
  // The Redis machine comes back empty (no append-only file).
  server_->Kill();
  std::filesystem::remove_all(fs::path(server_->Dir()) / "appendonlydir");
  ASSERT_TRUE(server_->Restart());
  redis_->Disconnect();
  // The learner's first call after the loss is a publish (the gate's candidate), which
  // reconnects on its own: the loss is noticed when the learner reads next.
  ASSERT_TRUE(l.Publish(Checkpoint(run.Str(), "candidate"), 3, false).ok());
  // A worker with a user of its own cannot register itself: it just adds its next game.
  ASSERT_TRUE(AddEntry(*redis_, keys.WorkerSelfplay("w1"),
                       {{"e", Bytes(SelfplayEntry(games[1], net, "w1"))}})
                  .ok());
  auto report = l.CollectSelfplay(Request(run.File("samples/iter_0001"), 1, {net}, {net}));
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report.value().games_by_worker.at("w1"), 1);
  const std::vector<std::string> workers = SetMembers(*redis_, keys.Workers()).value();
  EXPECT_EQ(std::count(workers.begin(), workers.end(), "w1"), 1);
  EXPECT_EQ(HashGet(*redis_, keys.Current(), "id").value(), net);
  EXPECT_EQ(HashGet(*redis_, keys.Models(), old).value(), "1");
  EXPECT_EQ(ListLength(*redis_, keys.Model(old)).value(), 1);
  EXPECT_EQ(GetValue(*redis_, keys.Config()).value(), "config");
  EXPECT_TRUE(KeyExists(*redis_, keys.Epoch()).value());
  bool logged = false;
  for (const std::string& line : log_)
    logged |= line.find("lost the run's data") != std::string::npos;
  EXPECT_TRUE(logged);
}

TEST(WorkerShareTest, TheCapIsTheShareOfTheGenerationAndNeverLeavesItUnfillable) {
  EXPECT_EQ(WorkerShareCap(0.5, 6, 2), 3);
  EXPECT_EQ(WorkerShareCap(0.5, 7, 2), 4);   // rounded up
  EXPECT_EQ(WorkerShareCap(0.5, 6, 1), 6);   // a lone worker fills a generation alone
  EXPECT_EQ(WorkerShareCap(0.5, 6, 0), 6);   // (no heartbeat seen yet)
  EXPECT_EQ(WorkerShareCap(0.3, 10, 2), 5);  // 2 x 0.3 < 1: each may fill half
  EXPECT_EQ(WorkerShareCap(0.3, 10, 4), 3);
  EXPECT_EQ(WorkerShareCap(1.0, 10, 8), 10);  // the default: no cap
  WorkerShare share(0.5, 4);
  EXPECT_FALSE(share.SetProducers(2));
  EXPECT_TRUE(share.Take("a"));
  EXPECT_TRUE(share.Take("a"));
  EXPECT_FALSE(share.Take("a"));
  EXPECT_TRUE(share.Take("b"));
  EXPECT_TRUE(share.Untake("a"));  // a duplicate after all, while one is held back
  EXPECT_TRUE(share.Take("a"));
  EXPECT_EQ(share.Held(), 1);
  EXPECT_TRUE(share.SetProducers(1));  // the cap rose while an entry is held back
  share.ClearHeld();
  EXPECT_FALSE(share.SetProducers(2));
  EXPECT_EQ(share.Held(), 0);
}

// Two live workers, max_worker_share 0.5: the fast one fills half a generation, its further
// games wait pending (none rejected) for the next; when the slow one's heartbeat goes, the
// fast one alone fills the generation with what it held back. Every game once in the run.
TEST_F(LearnerTest, OneWorkerFillsAtMostItsShareOfAGenerationAndNoGameIsLost) {
  testing::TempDir run;
  const RunKeys keys("t");
  std::atomic<bool> filled{false};
  LearnerOptions o = Options(run.Str());
  o.cluster.max_worker_share = 0.5;
  o.log = [&filled](const std::string& line) {
    if (line.find("worker fast has filled its share") != std::string::npos) filled = true;
  };
  auto learner = Learner::Start(o);
  ASSERT_TRUE(learner.ok()) << learner.error();
  Learner& l = *learner.value();
  const std::string net = l.Publish(Checkpoint(run.Str(), "net"), 0, true).value();
  const auto games = PlayGames(10);
  ASSERT_EQ(games.size(), 10u);
  std::vector<Entry> fast, slow;
  for (int i = 0; i < 7; ++i) fast.push_back(SelfplayEntry(games[i], net, "fast"));
  for (int i = 7; i < 10; ++i) slow.push_back(SelfplayEntry(games[i], net, "slow"));
  for (const char* w : {"fast", "slow"}) {
    ASSERT_TRUE(SetValueWithTtl(*redis_, keys.Worker(w), "{}", 600'000).ok());
  }
  for (int i = 0; i < 6; ++i) Send("fast", Bytes(fast[i]));
  for (const Entry& e : slow) Send("slow", Bytes(e));
  const std::string dir0 = run.File("samples/iter_0000");
  auto first = l.CollectSelfplay(Request(dir0, 6, {net}, {net}));
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first.value().games_by_worker.at("fast"), 3);
  EXPECT_EQ(first.value().games_by_worker.at("slow"), 3);
  EXPECT_GE(first.value().held_by_worker.at("fast"), 1);
  EXPECT_TRUE(filled);
  std::set<std::string> expected0;
  for (int i = 0; i < 3; ++i) expected0.insert({ContentId(fast[i]), ContentId(slow[i])});
  const auto ids0 = StoredIds(dir0);
  EXPECT_EQ(std::set<std::string>(ids0.begin(), ids0.end()), expected0);
  EXPECT_EQ(ids0.size(), 6u);
  // Next generation: the slow worker is alive but sends nothing; once the fast one has filled
  // its share, the slow one stops (its heartbeat expires) and the fast one fills the rest.
  filled = false;
  Send("fast", Bytes(fast[6]));
  std::atomic<bool> done{false};
  std::thread stopper([&] {
    RedisClient redis(options_);
    while (!filled && !done) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    DeleteKeys(redis, {keys.Worker("slow")});
  });
  const std::string dir1 = run.File("samples/iter_0001");
  auto second = l.CollectSelfplay(Request(dir1, 4, {net}, {net}));
  done = true;
  stopper.join();
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_TRUE(filled);  // it was held back at 2 while the slow worker lived
  EXPECT_EQ(second.value().games_by_worker.at("fast"), 4);
  std::set<std::string> expected1;
  for (int i = 3; i < 7; ++i) expected1.insert(ContentId(fast[i]));
  const auto ids1 = StoredIds(dir1);
  EXPECT_EQ(std::set<std::string>(ids1.begin(), ids1.end()), expected1);
  EXPECT_EQ(ids1.size(), 4u);
  // Nothing rejected, nothing left pending, every game once in the run.
  EXPECT_EQ(l.Totals().rejected, 0);
  EXPECT_EQ(StreamLength(*redis_, keys.Dead()).value(), 0);
  EXPECT_EQ(Pending(*redis_, keys.WorkerSelfplay("fast"), kLearnerGroup).value().count, 0);
  auto audit = AuditRun(run.Str());
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit.value().games_with_id, 10);
  EXPECT_TRUE(audit.value().duplicates.empty());
}

TEST_F(LearnerTest, OneRunNameHasOneLearner) {
  testing::TempDir a, b;
  auto first = Learner::Start(Options(a.Str()));
  ASSERT_TRUE(first.ok()) << first.error();
  auto second = Learner::Start(Options(b.Str()));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.kind(), util::ErrorKind::kBadInput);
  EXPECT_NE(second.error().find("another learner"), std::string::npos) << second.error();
  EXPECT_NE(second.error().find(fs::weakly_canonical(a.Path()).string()), std::string::npos);
  first.value().reset();  // stopped: the next one may start
  EXPECT_TRUE(Learner::Start(Options(b.Str())).ok());
}

}  // namespace
}  // namespace veletas::cluster
