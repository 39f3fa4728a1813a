#include "cluster/learner/worker_share.h"

#include <algorithm>
#include <cmath>

namespace veletas::cluster {

int64_t WorkerShareCap(double share, int64_t games, int producers) {
  if (producers <= 1) return games;
  const double used = std::max(share, 1.0 / producers);
  return std::min(games, static_cast<int64_t>(std::ceil(used * static_cast<double>(games))));
}

bool WorkerShare::SetProducers(int producers) {
  const int64_t before = Cap();
  producers_ = producers;
  return held_ > 0 && Cap() > before;
}

bool WorkerShare::Take(const std::string& worker) {
  int64_t& taken = taken_[worker];
  if (taken < Cap()) {
    ++taken;
    return true;
  }
  ++held_;
  ++held_by_worker_[worker];
  return false;
}

bool WorkerShare::Untake(const std::string& worker) {
  auto it = taken_.find(worker);
  if (it != taken_.end() && it->second > 0) --it->second;
  return held_ > 0;
}

void WorkerShare::ClearHeld() {
  held_ = 0;
  held_by_worker_.clear();
}

}  // namespace veletas::cluster
