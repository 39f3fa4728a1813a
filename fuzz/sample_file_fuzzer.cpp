// Sample files (data/sample_file.h). The first byte picks how the rest is read: even, as a
// whole file (header, checksums, zstd frame: what a hostile hand writes); odd, as a 64-byte
// header and the uncompressed payload, which this target compresses and checksums (so that
// the payload's parser is reached, not only the checksums in front of it). Property: a file
// that reads back is encoded as one that reads back the same (samples, games).
#include <zstd.h>

#include <cstring>

#include "data/sample_file.h"
#include "fuzz/fuzz_util.h"
#include "util/atomic_file.h"
#include "util/checksum.h"

using namespace veletas;

namespace {

constexpr size_t kHeaderSize = 64;

void PutU64(std::string& s, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

// `header` (its version, rules, size and counts kept) with `raw` as its payload: compressed,
// lengths and checksums set as the writer sets them. Empty when the input is too short.
std::string Framed(std::string_view input) {
  if (input.size() < kHeaderSize) return "";
  const std::string_view raw = input.substr(kHeaderSize);
  std::string z(ZSTD_compressBound(raw.size()), '\0');
  const size_t n = ZSTD_compress(z.data(), z.size(), raw.data(), raw.size(), 1);
  if (ZSTD_isError(n)) return "";
  z.resize(n);
  std::string file(input.substr(0, kHeaderSize));
  PutU64(file, 24, raw.size());
  PutU64(file, 32, z.size());
  PutU64(file, 40, util::Checksum64(raw));
  PutU64(file, 48, util::Checksum64(z));
  PutU64(file, 56, util::Checksum64(std::string_view(file).substr(0, 56)));
  return file + z;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view rest = fuzz::Text(data + 1, size - 1);
  const std::string framed = data[0] % 2 == 1 ? Framed(rest) : std::string(rest);
  const util::Result<data::SampleFile> file = data::DecodeSampleFile(framed, "fuzz.vzs");
  if (file) {
    const util::Result<std::string> bytes = data::EncodeSampleFile(file.value());
    fuzz::Require(bytes.ok(), "a file read cannot be encoded");
    const util::Result<data::SampleFile> again = data::DecodeSampleFile(bytes.value(), "again.vzs");
    fuzz::Require(again.ok(), "an encoded file does not read back");
    fuzz::Require(again.value().samples.size() == file.value().samples.size() &&
                      again.value().games.size() == file.value().games.size(),
                  "an encoded file reads back differently");
  }
  return 0;
}
