#include "util/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "util/run_dir.h"

namespace veletas::util {
namespace {

namespace fs = std::filesystem;

using test_support::TempDir;

TEST(AtomicFile, WritesReplacesAndLeavesNoTemporary) {
  TempDir dir;
  const std::string path = dir.File("a.json");
  ASSERT_EQ(test_support::ErrorText(WriteFileAtomic(path, "first")), "");
  ASSERT_EQ(test_support::ErrorText(WriteFileAtomic(path, std::string("sec\0nd", 6))), "");
  std::string read;
  ASSERT_TRUE(test_support::ReadInto(path, read));
  EXPECT_EQ(read, std::string("sec\0nd", 6));
  EXPECT_FALSE(fs::exists(TemporaryPath(path)));
}

TEST(AtomicFile, ErrorsNameTheFile) {
  TempDir dir;
  const std::string missing_dir = dir.File("no/such/dir/x.bin");
  const Status written = WriteFileAtomic(missing_dir, "x");
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().find(missing_dir), std::string::npos) << written.error();
  EXPECT_EQ(written.kind(), ErrorKind::kFailure);
  const auto read = ReadFile(dir.File("absent"));
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("absent: cannot open"), std::string::npos) << read.error();
  EXPECT_EQ(read.kind(), ErrorKind::kBadInput);
  EXPECT_EQ(read.exit_code(), 2);
}

TEST(AtomicFile, Fnv1aMatchesPublishedVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xCBF29CE484222325ULL);
  EXPECT_EQ(Fnv1a64("a"), 0xAF63DC4C8601EC8CULL);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171F73967E8ULL);
}

}  // namespace
}  // namespace veletas::util
