// SHA-256 (FIPS 180-4) from Debian's nettle: content addresses of published networks
// (cluster/), and the reference traces of the rules tests (lists of legal turns identified by
// a SHA-256 prefix). Native builds only.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <nettle/sha2.h>

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
  sha256_ctx ctx_;
};

// Lower-case hex digest of `bytes` (64 characters). Thread-safe.
std::string Sha256Hex(std::string_view bytes);

// Lower-case hex of `digest` (64 characters).
std::string HexDigest(const std::array<uint8_t, 32>& digest);

}  // namespace veletas::util
