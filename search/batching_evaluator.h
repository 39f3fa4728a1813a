// The batching front end: many games or threads call one BatchingEvaluator concurrently;
// it gathers their requests into batches for one backend evaluator (e.g. the network),
// serialises the backend calls and caches results by position hash.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "search/eval_cache.h"
#include "search/evaluator.h"
#include "search/search_config.h"

namespace veletas::search {

class BatchingEvaluator : public Evaluator {
 public:
  struct Stats {
    uint64_t evaluations = 0;        // positions asked for by callers
    uint64_t cache_hits = 0;         // of those, answered from the cache
    uint64_t batches = 0;            // backend calls
    uint64_t backend_positions = 0;  // positions sent to the backend, padding excluded
    uint64_t padded = 0;             // padding copies added to batches of size 1
    // Mean number of real positions per backend call, and that as a fraction of max_batch.
    double MeanBatchSize() const {
      return batches == 0 ? 0.0 : static_cast<double>(backend_positions) / batches;
    }
    double MeanFill(int max_batch) const { return MeanBatchSize() / max_batch; }
  };

  // `backend` must outlive this object; from now on only this object's worker thread calls
  // it, one batch at a time, never with fewer than two positions (a lone position is
  // padded with a copy of itself). Preconditions: config.max_batch >= 2,
  // config.max_wait_us >= 0, config.cache_size >= 0.
  BatchingEvaluator(Evaluator& backend, const BatchingConfig& config);
  // Stops the worker. Precondition: no Evaluate call is in progress.
  ~BatchingEvaluator() override;
  BatchingEvaluator(const BatchingEvaluator&) = delete;
  BatchingEvaluator& operator=(const BatchingEvaluator&) = delete;

  // Evaluates `positions` (any number, split across batches as needed) and blocks until
  // all results are in `out`. Results are exactly what the backend gives for each
  // position (or an earlier cached result for the same hash). Thread-safe: any number of
  // concurrent callers. Rethrows an exception thrown by the backend for these positions.
  void Evaluate(std::span<const rules::Position> positions, std::span<EvalOutput> out) override;

  // Counters since construction or ResetStats. Thread-safe.
  Stats GetStats() const;
  void ResetStats();
  const BatchingConfig& Config() const { return config_; }

 private:
  struct Request {
    std::span<const rules::Position> positions;
    std::span<EvalOutput> out;
    std::vector<int> misses;  // indices of positions not found in the cache
    size_t next = 0;          // misses already placed in a batch
    size_t remaining = 0;     // misses not yet answered
    std::chrono::steady_clock::time_point enqueued;
    std::exception_ptr error;
    bool done = false;
    std::condition_variable cv;
  };
  struct Slot {
    Request* request;
    int index;  // into request->positions / out
  };
  void WorkerLoop();

  Evaluator& backend_;
  const BatchingConfig config_;
  EvalCache cache_;

  mutable std::mutex mutex_;
  std::condition_variable worker_cv_;
  std::deque<Request*> queue_;
  size_t queued_positions_ = 0;  // misses in queue_ not yet placed in a batch
  bool stop_ = false;
  Stats stats_;
  uint64_t cache_hits_base_ = 0;  // cache_.Hits() at the last ResetStats
  std::thread worker_;
};

}  // namespace veletas::search
