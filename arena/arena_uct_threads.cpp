#include "arena/arena_slot.h"

namespace veletas::arena {

Arena::UctThreads::UctThreads(int n) {
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { Loop(); });
}

Arena::UctThreads::~UctThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void Arena::UctThreads::Submit(Slot* slot) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(slot);
  }
  work_cv_.notify_one();
}

void Arena::UctThreads::TakeDone(std::vector<Slot*>& out, bool wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wait) done_cv_.wait(lock, [&] { return !done_.empty() || error_; });
  if (error_) std::rethrow_exception(error_);
  out.insert(out.end(), done_.begin(), done_.end());
  done_.clear();
}

void Arena::UctThreads::Loop() {
  for (;;) {
    Slot* slot = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      slot = queue_.front();
      queue_.pop_front();
    }
    std::exception_ptr error;
    try {
      search::TurnChoice choice = slot->sync[slot->side]->ChooseTurn(slot->pos);
      slot->sync_turn = std::move(choice.turn);
      slot->sync_simulations = choice.simulations;
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !error_) error_ = error;
      done_.push_back(slot);
    }
    done_cv_.notify_all();
  }
}

}  // namespace veletas::arena
