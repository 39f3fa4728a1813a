#include "util/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/temp_dir.h"
#include "util/run_dir.h"

namespace veletas::util {
namespace {

namespace fs = std::filesystem;

using test_support::TempDir;

TEST(AtomicFile, WritesReplacesAndLeavesNoTemporary) {
  TempDir dir;
  const std::string path = dir.File("a.json");
  ASSERT_EQ(WriteFileAtomic(path, "first"), "");
  ASSERT_EQ(WriteFileAtomic(path, std::string("sec\0nd", 6)), "");
  std::string read;
  ASSERT_EQ(ReadFile(path, read), "");
  EXPECT_EQ(read, std::string("sec\0nd", 6));
  EXPECT_FALSE(fs::exists(TemporaryPath(path)));
}

TEST(AtomicFile, ErrorsNameTheFile) {
  TempDir dir;
  const std::string missing_dir = dir.File("no/such/dir/x.bin");
  const std::string err = WriteFileAtomic(missing_dir, "x");
  EXPECT_NE(err.find(missing_dir), std::string::npos) << err;
  std::string read;
  const std::string err2 = ReadFile(dir.File("absent"), read);
  EXPECT_NE(err2.find("absent: cannot open"), std::string::npos) << err2;
}

TEST(AtomicFile, Fnv1aMatchesPublishedVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xCBF29CE484222325ULL);
  EXPECT_EQ(Fnv1a64("a"), 0xAF63DC4C8601EC8CULL);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171F73967E8ULL);
}

}  // namespace
}  // namespace veletas::util
