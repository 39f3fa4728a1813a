// A bounded, thread-safe cache of evaluator outputs keyed by position hash.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "search/evaluator.h"

namespace veletas::search {

// Direct-mapped table of `capacity` entries: an entry lives in slot hash % capacity and a
// newer result for the same slot replaces it. Memory is allocated up front (about 416
// bytes per entry). Keys are full 64-bit Zobrist hashes (they include the rule set, the
// board size and the pending sub-decision), so two positions share an entry only on a
// hash collision. Thread-safe: slots are guarded by striped mutexes.
class EvalCache {
 public:
  // capacity 0: every lookup misses and nothing is stored.
  explicit EvalCache(int capacity);

  // Copies the cached output for `hash` into `out` and returns true, or returns false.
  bool Lookup(uint64_t hash, EvalOutput& out);
  // Stores `value` under `hash`.
  void Insert(uint64_t hash, const EvalOutput& value);

  uint64_t Hits() const { return hits_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    uint64_t hash = 0;
    bool used = false;
    EvalOutput output;
  };
  static constexpr int kStripes = 64;
  std::mutex& StripeFor(size_t slot) { return stripes_[slot % kStripes]; }

  std::vector<Entry> entries_;
  std::unique_ptr<std::mutex[]> stripes_;
  std::atomic<uint64_t> hits_{0};
};

}  // namespace veletas::search
