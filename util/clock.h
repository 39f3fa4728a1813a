// Elapsed wall time on the steady clock, for benchmarks, rates and time budgets.
#pragma once

#include <chrono>

namespace veletas::util {

using SteadyClock = std::chrono::steady_clock;

// Seconds from `start` to now on the steady clock.
inline double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// Seconds on the steady clock since its (arbitrary) epoch: for differences only, e.g. an
// injectable "now" function.
inline double SteadySeconds() {
  return std::chrono::duration<double>(SteadyClock::now().time_since_epoch()).count();
}

}  // namespace veletas::util
