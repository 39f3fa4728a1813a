#include "cluster/worker/spool_writer.h"

namespace veletas::cluster {

void SpoolWriter::Add(EntryKind kind, std::string entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.emplace_back(kind, std::move(entry));
  cv_.notify_one();
}

util::Status SpoolWriter::status() {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

util::Status SpoolWriter::Close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    cv_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  return status();
}

void SpoolWriter::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty() || !status_.ok()) return;
    auto [kind, entry] = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    auto name = outbox_.Put(kind, entry);
    lock.lock();
    if (!name) status_ = name.error_value();
  }
}

}  // namespace veletas::cluster
