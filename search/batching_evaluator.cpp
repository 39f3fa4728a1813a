#include "search/batching_evaluator.h"

namespace veletas::search {

BatchingEvaluator::BatchingEvaluator(Evaluator& backend, const BatchingConfig& config)
    : backend_(backend), config_(config), cache_(config.cache_size) {
  worker_ = std::thread([this] { WorkerLoop(); });
}

BatchingEvaluator::~BatchingEvaluator() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  worker_cv_.notify_one();
  worker_.join();
}

void BatchingEvaluator::Evaluate(std::span<const rules::Position> positions,
                                 std::span<EvalOutput> out) {
  Request request;
  request.positions = positions;
  request.out = out;
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!cache_.Lookup(positions[i].Hash(), out[i])) request.misses.push_back(static_cast<int>(i));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  stats_.evaluations += positions.size();
  if (request.misses.empty()) return;
  request.remaining = request.misses.size();
  request.enqueued = std::chrono::steady_clock::now();
  queue_.push_back(&request);
  queued_positions_ += request.misses.size();
  worker_cv_.notify_one();
  request.cv.wait(lock, [&] { return request.done; });
  if (request.error) std::rethrow_exception(request.error);
}

void BatchingEvaluator::WorkerLoop() {
  const auto max_wait = std::chrono::microseconds(config_.max_wait_us);
  const size_t max_batch = static_cast<size_t>(config_.max_batch);
  std::vector<rules::Position> batch;
  std::vector<EvalOutput> outputs;
  std::vector<Slot> slots;
  batch.reserve(max_batch);
  slots.reserve(max_batch);
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    worker_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_ and nothing left to answer
    // Wait for a full batch, but not past max_wait after the oldest request arrived.
    const auto deadline = queue_.front()->enqueued + max_wait;
    worker_cv_.wait_until(lock, deadline, [&] { return stop_ || queued_positions_ >= max_batch; });
    batch.clear();
    slots.clear();
    while (batch.size() < max_batch && !queue_.empty()) {
      Request* r = queue_.front();
      while (batch.size() < max_batch && r->next < r->misses.size()) {
        const int index = r->misses[r->next++];
        batch.push_back(r->positions[index]);
        slots.push_back({r, index});
        --queued_positions_;
      }
      if (r->next == r->misses.size()) queue_.pop_front();
    }
    lock.unlock();

    const size_t real = batch.size();
    if (real == 1) batch.push_back(batch[0]);  // the backend never sees a batch of one
    outputs.assign(batch.size(), EvalOutput{});
    std::exception_ptr error;
    try {
      backend_.Evaluate(batch, outputs);
    } catch (...) {
      error = std::current_exception();
    }
    if (!error) {
      // The callers are blocked until `done`, so their outputs can be written unlocked.
      for (size_t i = 0; i < real; ++i) {
        slots[i].request->out[slots[i].index] = outputs[i];
        cache_.Insert(batch[i].Hash(), outputs[i]);
      }
    }

    lock.lock();
    ++stats_.batches;
    stats_.backend_positions += real;
    stats_.padded += batch.size() - real;
    for (size_t i = 0; i < real; ++i) {
      Request* r = slots[i].request;
      if (error) r->error = error;
      if (--r->remaining == 0) {
        r->done = true;
        r->cv.notify_one();
      }
    }
  }
}

BatchingEvaluator::Stats BatchingEvaluator::GetStats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats s = stats_;
  s.cache_hits = cache_.Hits() - cache_hits_base_;
  return s;
}

void BatchingEvaluator::ResetStats() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_ = Stats{};
  cache_hits_base_ = cache_.Hits();
}

}  // namespace veletas::search
