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

// Version 3 (XXH3 checksums, a 16-byte id per game) is written and read. Files of versions
// 1 and 2 (FNV-1a checksums; written by earlier builds) are refused with an error naming the
// file and the versions (docs/SAMPLE_FORMAT.md).
inline constexpr uint32_t kSampleFormatVersion = 3;

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

// Bad input naming `path` and both versions when `data` (the first bytes of a file; 12 are
// enough) is a sample file of another format version (1 to 255), e.g. one written by an
// earlier build; Ok otherwise (this version, a corrupt version field, or not a sample file). Readers that skip corrupt files
// (training, resumed self-play) still refuse these: an old file is never misread or replaced.
// Thread-safe.
util::Status CheckSampleFormatVersion(std::string_view data, const std::string& path);

// The same for the file at `path` (reads its first 12 bytes; Ok when it cannot be read).
util::Status CheckSampleFileVersion(const std::string& path);

}  // namespace veletas::data
