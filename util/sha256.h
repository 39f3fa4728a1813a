// A small, dependency-free SHA-256 (FIPS 180-4): content addresses of published networks
// (cluster/), and the reference traces of the rules tests (lists of legal turns identified by
// a SHA-256 prefix).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace veletas::util {

// Incremental SHA-256. Thread-compatible (one object per thread).
class Sha256 {
 public:
  Sha256();
  // Appends bytes to the message. Precondition: Final() not yet called.
  void Update(std::string_view bytes);
  // The 32-byte digest. Call once; the object is then spent.
  std::array<uint8_t, 32> Final();

 private:
  void Block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes so far
};

// Lower-case hex digest of `bytes` (64 characters). Thread-safe.
std::string Sha256Hex(std::string_view bytes);

// Lower-case hex of `digest` (64 characters).
std::string HexDigest(const std::array<uint8_t, 32>& digest);

}  // namespace veletas::util
