#include "arena/opening_book.h"

#include <algorithm>

#include "rules/symmetry.h"

namespace veletas::arena {
namespace {

// The smallest hash of the position under the 8 board symmetries: equal for openings that
// are mirror images of each other.
uint64_t CanonicalKey(const rules::Position& pos) {
  uint64_t key = pos.Hash();
  for (int sym = 1; sym < rules::kNumSymmetries; ++sym) {
    key = std::min(key, pos.Transformed(sym).Hash());
  }
  return key;
}

// A bound on the extra random turns an opening may get when openings repeat.
constexpr int kMaxExtraOpeningTurns = 40;
constexpr int kOpeningAttempts = 64;

}  // namespace

OpeningBook::OpeningBook(rules::RuleSet rules, int size, int opening_turns, uint64_t seed)
    : rules_(rules),
      size_(size),
      turns_(opening_turns),
      rng_(util::SplitMix64(seed ^ 0x0BE11B00C0FFEEULL)) {}

const std::vector<rules::Turn>& OpeningBook::Get(int pair) {
  while (static_cast<int>(openings_.size()) <= pair) DrawNext();
  return openings_[pair];
}

void OpeningBook::DrawNext() {
  if (turns_ == 0) {
    openings_.emplace_back();
    return;
  }
  std::vector<rules::Turn> turns;
  for (int depth = turns_; depth <= turns_ + kMaxExtraOpeningTurns; ++depth) {
    for (int attempt = 0; attempt < kOpeningAttempts; ++attempt) {
      rules::Position p = rules::Position::Initial(rules_, size_);
      turns.clear();
      for (int t = 0; t < depth && !p.IsTerminal(); ++t) {
        turns.push_back(rules::RandomTurn(p, rng_));
        rules::ApplyTurn(p, turns.back());
      }
      if (p.IsTerminal()) continue;
      const uint64_t key = CanonicalKey(p);
      const auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
      if (it != keys_.end() && *it == key) continue;
      keys_.insert(it, key);
      openings_.push_back(turns);
      return;
    }
  }
  openings_.push_back(turns);  // practically unreachable: accept a repeat
}

}  // namespace veletas::arena
