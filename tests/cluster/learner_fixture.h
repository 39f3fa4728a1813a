// The learner tests' fixture: a real redis-server (testing::RedisTest), the learner's
// options, checkpoints, collection requests and the stored games' ids.
#pragma once

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cluster/learner/learner.h"
#include "cluster/transport/worker_registry.h"
#include "data/sample_file.h"
#include "tests/cluster/cluster_test_util.h"
#include "util/atomic_file.h"

namespace veletas::cluster {

class LearnerTest : public testing::RedisTest {
 protected:
  LearnerOptions Options(const std::string& run_dir) {
    LearnerOptions o;
    o.redis = options_;
    o.run = "t";
    o.cluster.ingest_batch = 4;
    o.config_text = "config";
    o.run_dir = run_dir;
    o.log = [this](const std::string& line) { log_.push_back(line); };
    o.network_bytes = [](const std::string& path) { return util::ReadFile(path); };
    return o;
  }
  std::string Checkpoint(const std::string& dir, const std::string& content) {
    const std::string path = dir + "/" + content + ".ckpt";
    std::ofstream(path) << content;
    return path;
  }
  // A learner started with `o`, with the network "net" under `run_dir` published as the
  // current one (its id in `id`); null, with a test failure, when either fails.
  std::unique_ptr<Learner> StartPublished(const LearnerOptions& o, const std::string& run_dir,
                                          std::string& id) {
    auto l = Learner::Start(o);
    EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.error());
    if (!l.ok()) return nullptr;
    auto published = l.value()->Publish(Checkpoint(run_dir, "net"), 1, true);
    EXPECT_TRUE(published.ok()) << (published.ok() ? "" : published.error());
    if (!published.ok()) return nullptr;
    id = published.value();
    return std::move(l.value());
  }
  CollectRequest Request(const std::string& dir, int64_t games,
                         const std::set<std::string>& accepted,
                         const std::set<std::string>& known) {
    CollectRequest r;
    r.dir.dir = dir;
    r.dir.games = games;
    r.dir.games_per_file = 4;
    r.dir.size = 7;
    r.accepted = accepted;
    r.known = known;
    return r;
  }
  // Adds `bytes` to the self-play stream of worker `sender` (registered first).
  void Send(const std::string& sender, const std::string& bytes) {
    const RunKeys keys("t");
    ASSERT_TRUE(RegisterWorker(*redis_, keys, sender).ok());
    ASSERT_TRUE(AddEntry(*redis_, keys.WorkerSelfplay(sender), {{"e", bytes}}).ok());
  }
  // The id the learner stores the game of `e` under: that of its content.
  static std::string ContentId(const Entry& e) {
    return SelfplayGameId(rules::RuleSet::kStandard, 7, e.game.games[0].record).Hex();
  }
  // The game ids in the sample files under `dir`.
  std::multiset<std::string> StoredIds(const std::string& dir) {
    std::multiset<std::string> ids;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".vzs") continue;
      auto f = data::ReadSampleFile(e.path().string());
      EXPECT_TRUE(f.ok());
      for (const auto& g : f.value().games) ids.insert(g.id.Hex());
    }
    return ids;
  }
  std::vector<std::string> log_;
};

}  // namespace veletas::cluster
