#include "search/eval_cache.h"

namespace veletas::search {

EvalCache::EvalCache(int capacity)
    : entries_(static_cast<size_t>(capacity > 0 ? capacity : 0)),
      stripes_(std::make_unique<std::mutex[]>(kStripes)) {}

bool EvalCache::Lookup(uint64_t hash, EvalOutput& out) {
  if (entries_.empty()) return false;
  const size_t slot = hash % entries_.size();
  std::lock_guard<std::mutex> lock(StripeFor(slot));
  const Entry& e = entries_[slot];
  if (!e.used || e.hash != hash) return false;
  out = e.output;
  hits_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void EvalCache::Insert(uint64_t hash, const EvalOutput& value) {
  if (entries_.empty()) return;
  const size_t slot = hash % entries_.size();
  std::lock_guard<std::mutex> lock(StripeFor(slot));
  Entry& e = entries_[slot];
  e.hash = hash;
  e.used = true;
  e.output = value;
}

}  // namespace veletas::search
