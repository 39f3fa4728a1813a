#include "training/batch_loader.h"

#include <algorithm>
#include <chrono>

namespace veletas::training {

BatchLoader::BatchLoader(const ReplayWindow& window, uint64_t seed, int64_t first, int64_t count,
                         int batch, double root_value_weight, int prefetch)
    : BatchLoader(
          [&window, seed, batch, root_value_weight](int64_t index, TrainingBatch& out) {
            DrawBatch(window, seed, index, batch, root_value_weight, out);
          },
          first, count, prefetch) {}

BatchLoader::BatchLoader(DrawFn draw, int64_t first, int64_t count, int prefetch)
    : draw_(std::move(draw)),
      first_(first),
      count_(count),
      prefetch_(static_cast<size_t>(std::max(1, prefetch))) {
  if (count_ > 0) thread_ = std::thread([this] { Run(); });
}

BatchLoader::~BatchLoader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  room_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BatchLoader::Run() {
  for (int64_t i = 0; i < count_; ++i) {
    std::unique_ptr<TrainingBatch> b;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      room_.wait(lock, [&] { return stop_ || queue_.size() < prefetch_; });
      if (stop_) return;
      if (!free_.empty()) {
        b = std::move(free_.back());
        free_.pop_back();
      }
    }
    try {
      if (!b) b = std::make_unique<TrainingBatch>();
      draw_(first_ + i, *b);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      ready_.notify_one();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(b));
    }
    ready_.notify_one();
  }
}

std::unique_ptr<TrainingBatch> BatchLoader::Next() {
  if (taken_ >= count_) return nullptr;
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  ready_.wait(lock, [&] { return !queue_.empty() || error_; });
  if (queue_.empty()) std::rethrow_exception(error_);
  std::unique_ptr<TrainingBatch> b = std::move(queue_.front());
  queue_.pop_front();
  lock.unlock();
  room_.notify_one();
  wait_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++taken_;
  return b;
}

void BatchLoader::Recycle(std::unique_ptr<TrainingBatch> batch) {
  if (!batch) return;
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(std::move(batch));
}

}  // namespace veletas::training
