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

inline constexpr uint32_t kSampleFormatVersion = 1;

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
// validates like ReadSampleFile, naming `path` in its errors. Thread-safe.
util::Result<std::string> EncodeSampleFile(const SampleFile& file);
util::Result<SampleFile> DecodeSampleFile(std::string_view data, const std::string& path);

}  // namespace veletas::data
