// Test support for hostile entries: an entry whose sample file declares far more samples than
// it holds (a decompression bomb), with every checksum fixed as a careful forger would.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cluster/transport/entry.h"
#include "data/sample_file.h"
#include "util/byte_io.h"
#include "util/checksum.h"

namespace veletas::cluster::testing {

// `entry` (the bytes of an encoded self-play entry whose game is `game`) with its sample
// file's header declaring `declared` bytes of samples, the header's and the entry's checksums
// recomputed. Unchanged when the sample file is not found in it.
inline std::string DeclaringHugeSamples(std::string entry, const data::SampleFile& game,
                                        uint64_t declared) {
  auto file = data::EncodeSampleFile(game);
  if (!file) return entry;
  const size_t at = entry.find(file.value().substr(0, 8));  // the file's magic
  if (at == std::string::npos) return entry;
  auto put = [&entry](size_t where, uint64_t v) {
    for (int i = 0; i < 8; ++i) entry[where + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  put(at + 24, declared);
  util::Writer header;
  header.Bytes(std::string_view(entry).substr(at, 56));
  put(at + 56, util::Checksum64(header.str()));
  put(entry.size() - 8, util::Checksum64(std::string_view(entry).substr(0, entry.size() - 8)));
  return entry;
}

}  // namespace veletas::cluster::testing
