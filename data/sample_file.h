// Sample files: a documented, versioned binary format with checksums, compressed with
// zstd, written atomically. See docs/SAMPLE_FORMAT.md for the byte layout.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "data/sample.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::data {

// Version 2 added each game's id (GameRecord::id); version 1 files are still read (their
// games have no id).
inline constexpr uint32_t kSampleFormatVersion = 2;

// The largest uncompressed payload a sample file may declare (8 GiB).
inline constexpr uint64_t kMaxSamplePayload = 8ULL << 30;

struct SampleFile {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
};

// Writes `file` to `path` (temporary name, then rename). The error names the file.
// Preconditions: every sample's position has file.rules and file.size.
util::Status WriteSampleFile(const std::string& path, const SampleFile& file);

// Reads and fully validates a sample file: header, checksums, decompression, every
// position (consistent state), every policy entry (legal action, probabilities summing to
// one) and aux target. Errors name the file and what is wrong (e.g. "samples_3.vzs:
// truncated: header says 81234 compressed bytes, file has 4096"). Never crashes.
util::Result<SampleFile> ReadSampleFile(const std::string& path);

// The bytes of a sample file in memory (what WriteSampleFile writes); DecodeSampleFile
// validates like ReadSampleFile, naming `path` in its errors, and refuses (bad input, before
// allocating it) a payload declared larger than `max_payload` bytes uncompressed.
// Thread-safe.
util::Result<std::string> EncodeSampleFile(const SampleFile& file);
util::Result<SampleFile> DecodeSampleFile(std::string_view data, const std::string& path,
                                          uint64_t max_payload = kMaxSamplePayload);

}  // namespace veletas::data
