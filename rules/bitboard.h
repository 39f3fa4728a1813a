// 128-bit square sets. Square index = row * size + col, row 0 is rank 1 (Black's side),
// col 0 is file a. Boards up to 10x10 use the low 100 bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace veletas::rules {

__extension__ typedef unsigned __int128 Bits128;

// A set of squares. Trivially copyable value type; all operations are constexpr and
// thread-compatible.
class Bitboard {
 public:
  constexpr Bitboard() = default;
  constexpr explicit Bitboard(Bits128 bits) : bits_(bits) {}
  // The set holding only square `sq` (0 <= sq < 128).
  static constexpr Bitboard Square(int sq) { return Bitboard(Bits128{1} << sq); }
  // Squares 0 .. n-1.
  static constexpr Bitboard FirstN(int n) {
    return n >= 128 ? Bitboard(~Bits128{0}) : Bitboard((Bits128{1} << n) - 1);
  }

  constexpr Bits128 bits() const { return bits_; }
  constexpr uint64_t Low() const { return static_cast<uint64_t>(bits_); }
  constexpr uint64_t High() const { return static_cast<uint64_t>(bits_ >> 64); }

  constexpr bool Empty() const { return bits_ == 0; }
  constexpr bool Any() const { return bits_ != 0; }
  constexpr bool Test(int sq) const { return (bits_ >> sq) & 1; }
  constexpr void Set(int sq) { bits_ |= Bits128{1} << sq; }
  constexpr void Clear(int sq) { bits_ &= ~(Bits128{1} << sq); }
  constexpr void Toggle(int sq) { bits_ ^= Bits128{1} << sq; }
  constexpr int Count() const { return std::popcount(Low()) + std::popcount(High()); }
  // Lowest square; precondition: Any().
  constexpr int Lsb() const {
    return Low() ? std::countr_zero(Low()) : 64 + std::countr_zero(High());
  }
  // Highest square; precondition: Any().
  constexpr int Msb() const {
    return High() ? 127 - std::countl_zero(High()) : 63 - std::countl_zero(Low());
  }
  // Removes and returns the lowest square; precondition: Any().
  constexpr int PopLsb() {
    int sq = Lsb();
    bits_ &= bits_ - 1;
    return sq;
  }
  // The n-th lowest square (0-based); precondition: n < Count().
  constexpr int Nth(int n) const {
    Bitboard b = *this;
    while (n-- > 0) b.bits_ &= b.bits_ - 1;
    return b.Lsb();
  }

  constexpr Bitboard operator&(Bitboard o) const { return Bitboard(bits_ & o.bits_); }
  constexpr Bitboard operator|(Bitboard o) const { return Bitboard(bits_ | o.bits_); }
  constexpr Bitboard operator^(Bitboard o) const { return Bitboard(bits_ ^ o.bits_); }
  constexpr Bitboard operator~() const { return Bitboard(~bits_); }
  constexpr Bitboard operator<<(int n) const { return Bitboard(bits_ << n); }
  constexpr Bitboard operator>>(int n) const { return Bitboard(bits_ >> n); }
  constexpr Bitboard& operator&=(Bitboard o) {
    bits_ &= o.bits_;
    return *this;
  }
  constexpr Bitboard& operator|=(Bitboard o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr Bitboard& operator^=(Bitboard o) {
    bits_ ^= o.bits_;
    return *this;
  }
  constexpr bool operator==(const Bitboard&) const = default;

  // Iteration over the squares, lowest first: `for (int sq : board) ...`.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using pointer = const int*;
    using reference = int;
    constexpr Iterator() = default;
    constexpr explicit Iterator(Bits128 bits) : bits_(bits) {}
    constexpr int operator*() const { return Bitboard(bits_).Lsb(); }
    constexpr Iterator& operator++() {
      bits_ &= bits_ - 1;
      return *this;
    }
    constexpr Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    constexpr bool operator==(const Iterator& o) const { return bits_ == o.bits_; }

   private:
    Bits128 bits_ = 0;
  };
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  Bits128 bits_ = 0;
};

}  // namespace veletas::rules
