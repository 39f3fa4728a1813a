#include "search/batching_evaluator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "search/fake_evaluators.h"
#include "search/mcts.h"
#include "tests/search/test_util.h"

namespace veletas::search {
namespace {

using testing::RandomPositions;

// A backend that checks the batching contract: never two calls at once, never a batch of
// one; records the batch sizes.
class CheckingBackend : public Evaluator {
 public:
  explicit CheckingBackend(uint64_t seed) : hash_(seed) {}
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override {
    if (busy_.exchange(true)) overlapping_calls_.fetch_add(1);
    if (positions.size() < 2) small_batches_.fetch_add(1);
    if (positions.size() > max_size_.load()) max_size_.store(positions.size());
    calls_.fetch_add(1);
    positions_.fetch_add(positions.size());
    if (fail_) {
      busy_.store(false);
      throw std::runtime_error("backend failure");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));  // widen any race window
    hash_.Evaluate(positions, out);
    busy_.store(false);
  }
  HashEvaluator hash_;
  std::atomic<bool> busy_{false};
  std::atomic<int> overlapping_calls_{0};
  std::atomic<int> small_batches_{0};
  std::atomic<size_t> max_size_{0};
  std::atomic<int> calls_{0};
  std::atomic<size_t> positions_{0};
  bool fail_ = false;
};

bool SameOutput(const EvalOutput& a, const EvalOutput& b) {
  return a.value == b.value && a.policy == b.policy;
}

TEST(BatchingEvaluator, ManyConcurrentCallersGetTheBackendsResults) {
  CheckingBackend backend(11);
  BatchingConfig config;
  config.max_batch = 32;
  config.max_wait_us = 500;
  config.cache_size = 256;
  BatchingEvaluator batching(backend, config);
  const auto pool = RandomPositions(rules::RuleSet::kStandard, 7, 60, 12);
  constexpr int kThreads = 8;
  constexpr int kCalls = 60;
  std::atomic<int> mismatches{0};
  std::atomic<uint64_t> requested{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      util::Rng rng(100 + t);
      for (int c = 0; c < kCalls; ++c) {
        std::vector<rules::Position> batch(1 + rng.Below(12));
        for (auto& p : batch) p = pool[rng.Below(pool.size())];
        std::vector<EvalOutput> out(batch.size());
        batching.Evaluate(batch, out);
        requested.fetch_add(batch.size());
        for (size_t i = 0; i < batch.size(); ++i) {
          if (!SameOutput(out[i], backend.hash_.EvaluateOne(batch[i]))) mismatches.fetch_add(1);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(backend.overlapping_calls_.load(), 0);
  EXPECT_EQ(backend.small_batches_.load(), 0);
  EXPECT_LE(backend.max_size_.load(), 32u);
  const BatchingEvaluator::Stats s = batching.GetStats();
  EXPECT_EQ(s.evaluations, requested.load());
  EXPECT_EQ(s.batches, static_cast<uint64_t>(backend.calls_.load()));
  EXPECT_EQ(s.backend_positions + s.padded, backend.positions_.load());
  // Sixty distinct positions asked for thousands of times: the cache answers most.
  EXPECT_GT(s.cache_hits, s.evaluations / 2);
  EXPECT_EQ(s.cache_hits + s.backend_positions, s.evaluations);
  EXPECT_GE(s.MeanBatchSize(), 1.0);
}

TEST(BatchingEvaluator, GathersConcurrentRequestsIntoOneBatch) {
  CheckingBackend backend(1);
  BatchingConfig config;
  config.max_batch = 8;
  config.max_wait_us = 2'000'000;  // only a full batch is sent before two seconds
  config.cache_size = 0;
  BatchingEvaluator batching(backend, config);
  const auto pool = RandomPositions(rules::RuleSet::kStandard, 9, 8, 3);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      EvalOutput out;
      batching.Evaluate({&pool[t], 1}, {&out, 1});
      if (!SameOutput(out, backend.hash_.EvaluateOne(pool[t]))) mismatches.fetch_add(1);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  // Eight single-position callers filled exactly one batch of eight.
  EXPECT_EQ(backend.calls_.load(), 1);
  EXPECT_EQ(batching.GetStats().MeanBatchSize(), 8.0);
  EXPECT_EQ(batching.GetStats().MeanFill(8), 1.0);
}

TEST(BatchingEvaluator, NeverCallsTheBackendWithOnePosition) {
  CheckingBackend backend(2);
  BatchingConfig config;
  config.max_batch = 16;
  config.max_wait_us = 0;
  config.cache_size = 0;
  BatchingEvaluator batching(backend, config);
  const auto pool = RandomPositions(rules::RuleSet::kStandard, 7, 5, 4);
  for (const auto& p : pool) {
    EvalOutput out;
    batching.Evaluate({&p, 1}, {&out, 1});
    EXPECT_TRUE(SameOutput(out, backend.hash_.EvaluateOne(p)));
  }
  EXPECT_EQ(backend.small_batches_.load(), 0);
  EXPECT_EQ(backend.calls_.load(), 5);
  const auto s = batching.GetStats();
  EXPECT_EQ(s.padded, 5u);
  EXPECT_EQ(s.backend_positions, 5u);
}

TEST(BatchingEvaluator, SplitsLargeRequestsIntoBatchesOfAtMostMaxBatch) {
  CheckingBackend backend(3);
  BatchingConfig config;
  config.max_batch = 64;
  config.max_wait_us = 0;
  config.cache_size = 0;
  BatchingEvaluator batching(backend, config);
  const auto pool = RandomPositions(rules::RuleSet::kStandard, 10, 1000, 5);
  std::vector<EvalOutput> out(pool.size());
  batching.Evaluate(pool, out);
  for (size_t i = 0; i < pool.size(); ++i) {
    ASSERT_TRUE(SameOutput(out[i], backend.hash_.EvaluateOne(pool[i]))) << i;
  }
  EXPECT_EQ(backend.max_size_.load(), 64u);
  EXPECT_EQ(backend.calls_.load(), 16);  // ceil(1000 / 64)
}

TEST(BatchingEvaluator, CacheAnswersRepeatsAndCountsHits) {
  CheckingBackend backend(4);
  BatchingConfig config;
  config.max_batch = 4;
  config.max_wait_us = 0;
  config.cache_size = 1024;
  BatchingEvaluator batching(backend, config);
  const auto pool = RandomPositions(rules::RuleSet::kStandard, 7, 3, 6);
  std::vector<EvalOutput> first(3), second(3);
  batching.Evaluate(pool, first);
  batching.Evaluate(pool, second);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(SameOutput(first[i], second[i]));
  EXPECT_EQ(backend.calls_.load(), 1);
  auto s = batching.GetStats();
  EXPECT_EQ(s.evaluations, 6u);
  EXPECT_EQ(s.cache_hits, 3u);
  batching.ResetStats();
  s = batching.GetStats();
  EXPECT_EQ(s.evaluations, 0u);
  EXPECT_EQ(s.cache_hits, 0u);
}

TEST(EvalCache, IsBoundedByItsCapacity) {
  EvalCache cache(16);
  EvalOutput out;
  for (uint64_t h = 1; h <= 1000; ++h) {
    out.value = static_cast<float>(h);
    cache.Insert(h * 0x9E3779B97F4A7C15ULL, out);
  }
  int held = 0;
  for (uint64_t h = 1; h <= 1000; ++h) {
    EvalOutput got;
    if (cache.Lookup(h * 0x9E3779B97F4A7C15ULL, got)) {
      ++held;
      EXPECT_EQ(got.value, static_cast<float>(h));  // never another key's entry
    }
  }
  EXPECT_GT(held, 0);
  EXPECT_LE(held, 16);
  EXPECT_EQ(cache.Hits(), static_cast<uint64_t>(held));
  EvalCache off(0);
  off.Insert(5, out);
  EXPECT_FALSE(off.Lookup(5, out));
}

TEST(BatchingEvaluator, PassesBackendErrorsToTheCaller) {
  CheckingBackend backend(5);
  backend.fail_ = true;
  BatchingEvaluator batching(backend, BatchingConfig{});
  const auto pool = RandomPositions(rules::RuleSet::kStandard, 7, 3, 7);
  std::vector<EvalOutput> out(3);
  EXPECT_THROW(batching.Evaluate(pool, out), std::runtime_error);
  backend.fail_ = false;
  batching.Evaluate(pool, out);  // still serves later requests
  EXPECT_TRUE(SameOutput(out[0], backend.hash_.EvaluateOne(pool[0])));
}

TEST(BatchingEvaluator, SearchesOnManyThreadsMatchSearchesOnTheBackend) {
  // Threads each run searches through one batching evaluator; every result equals the
  // same search run directly on the backend (searches are deterministic given their
  // evaluations).
  HashEvaluator backend(21);
  BatchingConfig bconfig;
  bconfig.max_batch = 64;
  bconfig.max_wait_us = 200;
  BatchingEvaluator batching(backend, bconfig);
  const auto positions = RandomPositions(rules::RuleSet::kStandard, 7, 12, 8);
  SearchConfig config;
  config.simulations = 120;
  std::vector<SearchResult> batched(positions.size()), direct(positions.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < positions.size(); i += 4) {
        Mcts mcts(config, i);
        mcts.SetPosition(positions[i]);
        batched[i] = mcts.Run(batching);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (size_t i = 0; i < positions.size(); ++i) {
    Mcts mcts(config, i);
    mcts.SetPosition(positions[i]);
    direct[i] = mcts.Run(backend);
    EXPECT_EQ(batched[i].action, direct[i].action);
    EXPECT_EQ(batched[i].policy, direct[i].policy);
    EXPECT_EQ(batched[i].value, direct[i].value);
  }
  EXPECT_GT(batching.GetStats().evaluations, 0u);
}

}  // namespace
}  // namespace veletas::search
