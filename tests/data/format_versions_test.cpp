// Files of earlier format versions (written by earlier builds with FNV-1a checksums) are
// refused with an error naming the file and the versions, never misread, skipped or replaced:
// a version-1 sample file written by an earlier build (tests/fixtures/formats_v1), version-2
// sample files, and journals with "VZJ1" entries. New files are version 3 (XXH3).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "data/game_journal.h"
#include "data/sample_dir.h"
#include "data/sample_file.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "util/atomic_file.h"
#include "util/byte_io.h"

namespace veletas::data {
namespace {

using test_support::ReadAll;
using test_support::TempDir;

const std::string kV1File =
    std::string(VELETAS_SOURCE_DIR) + "/tests/fixtures/formats_v1/one_game.vzs";

uint32_t Version(const std::string& bytes) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + 8, 4);
  return v;
}

// A journal entry as earlier builds wrote it: "VZJ1", index, length, checksum, payload.
std::string V1Entry(uint64_t index, const std::string& payload) {
  util::Writer w;
  w.Bytes("VZJ1");
  w.U64(index);
  w.U32(static_cast<uint32_t>(payload.size()));
  w.U64(0);
  w.Bytes(payload);
  return w.str();
}

TEST(FormatVersions, SampleFilesOfEarlierVersionsAreRefusedNamingTheVersions) {
  const std::string v1 = ReadAll(kV1File);
  ASSERT_EQ(Version(v1), 1u);
  EXPECT_EQ(kSampleFormatVersion, 3u);
  auto file = DecodeSampleFile(v1, kV1File);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.exit_code(), 2);
  EXPECT_EQ(file.error(), kV1File +
                              ": sample file format version 1 (written by an earlier build); this "
                              "build reads version 3 only (docs/SAMPLE_FORMAT.md)");
  // Version 2 had the layout of version 3 with FNV-1a checksums.
  std::string v2 = v1;
  v2[8] = 2;
  auto two = DecodeSampleFile(v2, "two.vzs");
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.error().find("two.vzs: sample file format version 2 (written by an earlier"),
            std::string::npos)
      << two.error();
  // A later version is named too.
  std::string future = v1;
  future[8] = 9;
  auto unknown = DecodeSampleFile(future, "future.vzs");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("future.vzs: sample file format version 9; this build reads "
                                 "version 3 only"),
            std::string::npos)
      << unknown.error();
  // The path variant reads only the header.
  EXPECT_EQ(CheckSampleFileVersion(kV1File).error(), file.error());
  TempDir dir;
  EXPECT_TRUE(CheckSampleFileVersion(dir.File("absent.vzs")).ok());
}

TEST(FormatVersions, AJournalWithAnEntryOfAnEarlierVersionIsRefusedAndKept) {
  TempDir dir;
  const std::string v1 = ReadAll(kV1File);
  const std::string path = dir.File("x_0.vzs.part");
  ASSERT_TRUE(util::AppendFile(path, V1Entry(0, v1)).ok());
  auto read = ReadJournal(path, rules::RuleSet::kStandard, 7, 0, 4);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.exit_code(), 2);
  EXPECT_NE(read.error().find(path + ": entry 1 (byte 0): journal entry of format version 1"),
            std::string::npos)
      << read.error();
  EXPECT_NE(read.error().find("this build reads version 3 only"), std::string::npos)
      << read.error();
  EXPECT_EQ(ReadAll(path), V1Entry(0, v1));  // not cut back
}

TEST(FormatVersions, AResumedRunRefusesAFileOfAnEarlierVersionAndKeepsIt) {
  TempDir dir;
  const std::string v1 = ReadAll(kV1File);
  const std::string path = ChunkPath(dir.Str(), "samples", 0);
  ASSERT_TRUE(util::WriteFileAtomic(path, v1).ok());
  auto plan = PlanResume(dir.Str(), "samples", 1, 1, rules::RuleSet::kStandard, 7);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.exit_code(), 2);
  EXPECT_NE(plan.error().find(path + ": sample file format version 1"), std::string::npos)
      << plan.error();
  EXPECT_EQ(ReadAll(path), v1);
}

}  // namespace
}  // namespace veletas::data
