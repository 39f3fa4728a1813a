#include "util/checksum.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace veletas::util {
namespace {

TEST(Checksum, Xxh3MatchesTheReferenceAndSeesEveryBit) {
  // XXH3_64bits of no bytes with seed 0 (xxHash's own sanity vector; XXH64 would give
  // 0xEF46DB3751D8E999).
  EXPECT_EQ(Checksum64(""), 0x2D06800538D394C2ULL);
  // Every single-bit change of a 300-byte message changes the checksum.
  std::string data(300, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7 + 3);
  const uint64_t base = Checksum64(data);
  std::set<uint64_t> seen = {base};
  for (size_t i = 0; i < data.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = data;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      seen.insert(Checksum64(flipped));
    }
  }
  EXPECT_EQ(seen.size(), 1 + data.size() * 8);
  EXPECT_NE(Checksum64(data.substr(0, 299)), base);
}

}  // namespace
}  // namespace veletas::util
