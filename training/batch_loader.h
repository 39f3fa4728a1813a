// Background preparation of training batches: one thread draws, augments and encodes the
// next batches (training/batch.h) while the optimiser works on the current one, so data
// loading never starves the optimiser. Torch-free.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "training/batch.h"
#include "training/replay_window.h"

namespace veletas::training {

// Produces batches first, first + 1, ..., first + count - 1 of the sampling stream of
// `seed` (DrawBatch), in order, at most `prefetch` ahead of the consumer.
// Thread safety: Next and Recycle are called by one consumer thread; `window` must outlive
// the loader and stay unchanged.
class BatchLoader {
 public:
  // Fills `out` with batch number `index` of the stream. Called on the loader's thread.
  using DrawFn = std::function<void(int64_t index, TrainingBatch& out)>;

  BatchLoader(const ReplayWindow& window, uint64_t seed, int64_t first, int64_t count, int batch,
              double root_value_weight, int prefetch);
  // The same with any way of drawing a batch.
  BatchLoader(DrawFn draw, int64_t first, int64_t count, int prefetch);
  // Stops the thread (it finishes the batch it is drawing) and joins it.
  ~BatchLoader();
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  // The next batch, waiting for it if needed; nullptr once `count` batches were returned.
  // An exception thrown while drawing a batch on the loader's thread is rethrown here, on
  // the consumer's thread, when that batch is due (the loader stops after it).
  std::unique_ptr<TrainingBatch> Next();
  // Gives a batch's storage back for reuse (optional).
  void Recycle(std::unique_ptr<TrainingBatch> batch);
  // Seconds Next() has spent waiting for the loader so far (0 when it keeps ahead).
  double WaitSeconds() const { return wait_seconds_; }

 private:
  void Run();

  const DrawFn draw_;
  const int64_t first_, count_;
  const size_t prefetch_;
  int64_t taken_ = 0;
  double wait_seconds_ = 0.0;

  std::mutex mutex_;
  std::condition_variable ready_;  // a batch was queued
  std::condition_variable room_;   // the queue has room, or stop
  std::deque<std::unique_ptr<TrainingBatch>> queue_;
  std::vector<std::unique_ptr<TrainingBatch>> free_;
  bool stop_ = false;
  std::exception_ptr error_;  // what drawing the batch after the queued ones threw
  std::thread thread_;
};

}  // namespace veletas::training
