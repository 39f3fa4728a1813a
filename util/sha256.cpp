#include "util/sha256.h"

#include "util/text.h"

namespace veletas::util {

Sha256::Sha256() { sha256_init(&ctx_); }

void Sha256::Update(std::string_view bytes) {
  sha256_update(&ctx_, bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()));
}

std::array<uint8_t, 32> Sha256::Final() {
  std::array<uint8_t, 32> out;
  sha256_digest(&ctx_, out.size(), out.data());
  return out;
}

std::string HexDigest(const std::array<uint8_t, 32>& digest) { return HexString(digest); }

std::string Sha256Hex(std::string_view bytes) {
  Sha256 sha;
  sha.Update(bytes);
  return HexDigest(sha.Final());
}

}  // namespace veletas::util
