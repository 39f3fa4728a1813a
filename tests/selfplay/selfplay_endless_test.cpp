// The self-play engine's endless mode (the cluster worker's): games handed over one by one,
// pause, drain, and an error of the consumer ending the run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>

#include "search/fake_evaluators.h"
#include "selfplay/selfplay_engine.h"
#include "selfplay_test_util.h"

namespace veletas::selfplay {
namespace {

// An endless run without an output directory: every finished game goes to on_game, pause
// holds the games in flight, drain lets them finish and ends the run.
TEST(SelfplayEngine, AnEndlessRunHandsOverGamesPausesAndDrains) {
  search::HashEvaluator evaluator(3);
  SelfplayConfig config = testing::SmallConfig();
  config.games_in_flight = 3;
  SelfplayJob job;
  job.size = 7;
  job.games = INT64_MAX;
  std::atomic<bool> drain{false}, pause{false};
  std::mutex mutex;
  std::set<uint64_t> indices;
  int64_t samples = 0;
  SelfplayHooks hooks;
  hooks.drain = &drain;
  hooks.pause = &pause;
  hooks.progress_seconds = 0.01;
  hooks.progress = [&](const SelfplayStats& s) {
    std::lock_guard<std::mutex> lock(mutex);
    if (s.games_finished >= 4 && !pause && !drain) pause = true;
  };
  hooks.on_game = [&](FinishedGame&& g) {
    std::lock_guard<std::mutex> lock(mutex);
    EXPECT_TRUE(indices.insert(g.index).second);
    samples += static_cast<int64_t>(g.samples.size());
    EXPECT_EQ(g.record.samples, g.samples.size());
    return util::Ok();
  };
  std::thread controller([&] {
    while (!pause) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    size_t paused_at;
    {
      std::lock_guard<std::mutex> lock(mutex);
      paused_at = indices.size();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    {
      std::lock_guard<std::mutex> lock(mutex);
      // At most the steps already under way finish while paused.
      EXPECT_LE(indices.size(), paused_at + static_cast<size_t>(config.games_in_flight));
    }
    drain = true;
    pause = false;
  });
  auto result = RunSelfplay(config, {}, testing::SmallBatching(), evaluator, job, hooks);
  controller.join();
  ASSERT_TRUE(result.ok()) << result.error();
  // Every game started was finished (drained), none abandoned.
  EXPECT_EQ(result.value().games_finished, static_cast<int64_t>(indices.size()));
  EXPECT_EQ(result.value().samples, samples);
  EXPECT_EQ(*indices.rbegin() + 1, indices.size());  // indices 0 .. n-1, each once
  EXPECT_GE(indices.size(), 4u);
}

TEST(SelfplayEngine, AnErrorOfOnGameEndsTheRunWithIt) {
  search::HashEvaluator evaluator(3);
  SelfplayJob job;
  job.games = INT64_MAX;
  SelfplayHooks hooks;
  hooks.on_game = [](FinishedGame&&) { return util::Status::Failure("spool full"); };
  auto result =
      RunSelfplay(testing::SmallConfig(), {}, testing::SmallBatching(), evaluator, job, hooks);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "spool full");
  EXPECT_EQ(result.kind(), util::ErrorKind::kFailure);
}

}  // namespace
}  // namespace veletas::selfplay
