// Little-endian byte writer and bounds-checked reader: the byte order of every binary format
// of the project (sample files, journals, checkpoints, cluster entries).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace veletas::util {

// An unsigned 128-bit integer (a GCC/Clang extension).
__extension__ typedef unsigned __int128 Uint128;

// Appends little-endian values to a string. Not thread-safe.
class Writer {
 public:
  void U8(uint64_t v) { out_.push_back(static_cast<char>(v & 0xFF)); }
  void U16(uint64_t v) { Le(v, 2); }
  void U32(uint64_t v) { Le(v, 4); }
  void U64(uint64_t v) { Le(v, 8); }
  void F32(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    U32(bits);
  }
  // 128 bits as two little-endian 64-bit words, low word first.
  void U128(Uint128 v) {
    U64(static_cast<uint64_t>(v));
    U64(static_cast<uint64_t>(v >> 64));
  }
  void Bytes(std::string_view s) { out_.append(s); }
  std::string& str() { return out_; }

 private:
  void Le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  std::string out_;
};

// Bounds-checked little-endian reader; `ok()` turns false on the first overrun. Not
// thread-safe.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool ok() const { return ok_; }
  size_t remaining() const { return data_.size() - pos_; }
  uint64_t U8() { return Le(1); }
  uint64_t U16() { return Le(2); }
  uint64_t U32() { return Le(4); }
  uint64_t U64() { return Le(8); }
  float F32() {
    const uint32_t bits = static_cast<uint32_t>(U32());
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  Uint128 U128() {
    const uint64_t lo = U64(), hi = U64();
    return (static_cast<Uint128>(hi) << 64) | lo;
  }
  std::string_view Bytes(size_t n) {
    if (!ok_ || remaining() < n) {
      ok_ = false;
      return {};
    }
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  uint64_t Le(int n) {
    if (!ok_ || remaining() < static_cast<size_t>(n)) {
      ok_ = false;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
    pos_ += n;
    return v;
  }
  std::string_view data_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace veletas::util
