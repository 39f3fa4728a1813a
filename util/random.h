// Small, fast, deterministic pseudo-random generator (xoshiro256**), identical on every
// platform. Not thread-safe: use one per thread.
#pragma once

#include <cstdint>

namespace veletas::util {

// splitmix64's output function: a bijective mix of 64 bits. Thread-safe (pure).
constexpr uint64_t SplitMix64Finalise(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One splitmix64 step from state `x`: the golden-ratio increment, then the finaliser. Used
// to derive well-spread seeds and keys from counters. Thread-safe (pure).
constexpr uint64_t SplitMix64(uint64_t x) { return SplitMix64Finalise(x + 0x9E3779B97F4A7C15ULL); }

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { Seed(seed); }
  void Seed(uint64_t seed) {
    for (uint64_t& s : state_) {
      s = SplitMix64(seed);
      seed += 0x9E3779B97F4A7C15ULL;
    }
  }
  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }
  // Uniform in [0, n); precondition n > 0. Unbiased (Lemire's method with rejection).
  uint64_t Below(uint64_t n) {
    __extension__ typedef unsigned __int128 U128;
    uint64_t x = Next();
    U128 m = static_cast<U128>(x) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = -n % n;
      while (low < threshold) {
        x = Next();
        m = static_cast<U128>(x) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

}  // namespace veletas::util
