// Helpers for the cluster tests: real self-play games from the engine with a fake evaluator,
// the entries a worker would send for them, and a fixture with a real redis-server.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cluster/transport/entry.h"
#include "cluster/transport/keys.h"
#include "cluster/transport/redis_client.h"
#include "cluster/transport/redis_commands.h"
#include "cluster/transport/redis_setup.h"
#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "tests/support/redis_server.h"
#include "tests/support/temp_dir.h"

namespace veletas::cluster::testing {

using test_support::TempDir;

inline selfplay::SelfplayConfig SmallSelfplay() {
  selfplay::SelfplayConfig c;
  c.threads = 1;
  c.games_in_flight = 4;
  c.leaves_per_search = 2;
  c.full_simulations = 8;
  c.cheap_simulations = 2;
  c.full_search_probability = 0.5f;
  c.resign_threshold = -1.0f;
  c.seed = 11;
  return c;
}

inline search::BatchingConfig SmallBatching() {
  search::BatchingConfig b;
  b.max_batch = 32;
  b.max_wait_us = 0;
  b.cache_size = 4096;
  return b;
}

// `n` finished self-play games of 7x7 standard (HashEvaluator; generation `seed`).
inline std::vector<selfplay::FinishedGame> PlayGames(int n, uint64_t seed = 1, int size = 7) {
  search::HashEvaluator evaluator(seed);
  selfplay::SelfplayJob job;
  job.size = size;
  job.games = n;
  job.generation = seed;
  auto games = selfplay::PlayGamesInMemory(SmallSelfplay(), search::SearchConfig{}, SmallBatching(),
                                           evaluator, job);
  EXPECT_TRUE(games.ok()) << (games.ok() ? "" : games.error());
  return games.ok() ? std::move(games.value()) : std::vector<selfplay::FinishedGame>{};
}

// The self-play entry a worker sends for `g` (a fresh random game id).
inline Entry SelfplayEntry(const selfplay::FinishedGame& g, const std::string& network,
                           const std::string& worker, int size = 7) {
  Entry e;
  e.kind = EntryKind::kSelfplay;
  e.game_id = RandomGameId();
  e.worker = worker;
  e.network = network;
  e.game.size = size;
  e.game.samples = g.samples;
  e.summaries = g.summaries;
  data::GameRecord r = g.record;
  r.id = e.game_id;
  e.game.games.push_back(r);
  return e;
}

inline std::string Bytes(const Entry& e) {
  auto b = EncodeEntry(e);
  EXPECT_TRUE(b.ok());
  return b.ok() ? b.value() : std::string();
}

// A fixture with a real redis-server of its own (AOF on).
// A client of the server on `port` logged in with the credentials file `name`.auth of the
// setup in `dir` (cluster/transport/redis_setup.h; "" = not logged in).
inline std::unique_ptr<RedisClient> SetupClient(int port, const std::string& dir,
                                                const std::string& name) {
  RedisOptions o;
  o.endpoint.port = port;
  o.connect_timeout_seconds = 2;
  if (!name.empty()) {
    auto auth = LoadRedisAuth(AuthFile(dir, name));
    EXPECT_TRUE(auth.ok());
    if (auth.ok()) o.auth = auth.value();
  }
  return std::make_unique<RedisClient>(o);
}

// CONFIG GET `key` ("" when the server has no such setting).
inline std::string ConfigValue(RedisClient& redis, const std::string& key) {
  auto v = ConfigGet(redis, key);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error());
  return v.ok() ? v.value().value_or("") : "";
}

// A fixture with a real redis-server started under the include that `veletas cluster setup`
// writes (cluster/transport/redis_setup.h) for run "t", its files in dir_.
class SetupServerTest : public ::testing::Test {
 protected:
  // Writes the setup with `maxmemory` and `max_entry_bytes` and starts redis-server with its
  // include, then the `extra_config` lines (which override it). A fatal failure when either
  // fails (callers: ASSERT_NO_FATAL_FAILURE).
  void StartSetupServer(int64_t maxmemory, int64_t max_entry_bytes = kDefaultMaxEntryBytes,
                        const std::string& extra_config = "") {
    RedisSetupOptions o;
    o.run = "t";
    o.dir = dir_.Str();
    o.maxmemory = maxmemory;
    o.max_entry_bytes = max_entry_bytes;
    ASSERT_TRUE(WriteRedisSetup(o).ok());
    std::string why;
    const std::string extra = extra_config.empty() ? "" : "\n" + extra_config;
    server_ = test_support::RedisServer::Start(why, "everysec",
                                               "include " + ConfFile(dir_.Str()) + extra);
    ASSERT_NE(server_, nullptr) << why;
  }
  // A client logged in with the credentials file `name`.auth of the setup ("" = none).
  std::unique_ptr<RedisClient> Client(const std::string& name) {
    return SetupClient(server_->Port(), dir_.Str(), name);
  }

  TempDir dir_;
  std::unique_ptr<test_support::RedisServer> server_;
};

class RedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    server_ = test_support::RedisServer::Start(why, appendfsync_);
    ASSERT_NE(server_, nullptr) << why;
    options_.endpoint.port = server_->Port();
    options_.command_timeout_seconds = 10;
    options_.connect_timeout_seconds = 2;
    redis_ = std::make_unique<RedisClient>(options_);
  }

  std::string appendfsync_ = "everysec";
  std::unique_ptr<test_support::RedisServer> server_;
  RedisOptions options_;
  std::unique_ptr<RedisClient> redis_;
};

}  // namespace veletas::cluster::testing
