#include "util/run_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/temp_dir.h"

namespace veletas::util {
namespace {

namespace fs = std::filesystem;

using test_support::TempDir;

TEST(RunDir, TemporaryNamesAreRecognised) {
  EXPECT_TRUE(IsTemporaryName("state.json.tmp.123"));
  EXPECT_TRUE(IsTemporaryName("samples_0.vzs.tmp.9"));
  EXPECT_FALSE(IsTemporaryName("state.json"));
  EXPECT_FALSE(IsTemporaryName(".tmp.123"));
  EXPECT_FALSE(IsTemporaryName("a.tmp."));
  EXPECT_FALSE(IsTemporaryName("a.tmp.12x"));
  EXPECT_FALSE(IsTemporaryName("a.tmp"));
  const std::string own = TemporaryPath("dir/x.ckpt");
  EXPECT_EQ(own, "dir/x.ckpt.tmp." + std::to_string(::getpid()));
  EXPECT_TRUE(IsTemporaryName(fs::path(own).filename().string()));
}

TEST(RunDir, StaleTemporariesAreRemovedRecursivelyAndNothingElse) {
  const TempDir temp;
  const fs::path& dir = temp.Path();
  fs::create_directories(dir / "models");
  fs::create_directories(dir / "samples" / "iter_0000");
  for (const fs::path& p :
       {dir / "state.json.tmp.41", dir / "models" / "gen_0001.ckpt.tmp.7",
        dir / "samples" / "iter_0000" / "samples_1.vzs.tmp.99", dir / "state.json",
        dir / "models" / "gen_0000.ckpt", dir / "notes.tmp.txt"}) {
    std::ofstream(p) << "x";
  }
  std::vector<std::string> errors;
  std::vector<std::string> removed = RemoveStaleTemporaries(dir.string(), &errors);
  std::sort(removed.begin(), removed.end());
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(removed.size(), 3u);
  EXPECT_EQ(removed[0], (dir / "models" / "gen_0001.ckpt.tmp.7").string());
  EXPECT_EQ(removed[1], (dir / "samples" / "iter_0000" / "samples_1.vzs.tmp.99").string());
  EXPECT_EQ(removed[2], (dir / "state.json.tmp.41").string());
  EXPECT_TRUE(fs::exists(dir / "state.json"));
  EXPECT_TRUE(fs::exists(dir / "models" / "gen_0000.ckpt"));
  EXPECT_TRUE(fs::exists(dir / "notes.tmp.txt"));
  EXPECT_FALSE(fs::exists(dir / "state.json.tmp.41"));
}

TEST(RunDir, AMissingDirectoryIsReported) {
  std::vector<std::string> errors;
  const std::string missing = (fs::temp_directory_path() / "veletas_no_such_dir_x").string();
  EXPECT_TRUE(RemoveStaleTemporaries(missing, &errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find(missing), std::string::npos);
}

TEST(RunDir, ALockIsExclusiveUntilReleased) {
  const TempDir temp;
  const fs::path& dir = temp.Path();
  {
    DirectoryLock first;
    ASSERT_TRUE(first.Acquire(dir.string()).ok());
    DirectoryLock second;  // flock locks of separate open files conflict in one process too
    const Status locked = second.Acquire(dir.string());
    ASSERT_FALSE(locked.ok());
    const std::string err = locked.error();
    EXPECT_NE(err.find("in use by another veletas process"), std::string::npos) << err;
    EXPECT_NE(err.find("pid " + std::to_string(::getpid())), std::string::npos) << err;
    EXPECT_NE(err.find(dir.string()), std::string::npos) << err;
  }
  DirectoryLock again;
  EXPECT_TRUE(again.Acquire(dir.string()).ok());
}

TEST(RunDir, ALockCreatesItsDirectoryOrFailsWithItsPath) {
  const TempDir temp;
  DirectoryLock lock;
  const std::string missing = temp.File("new/run");
  ASSERT_TRUE(lock.Acquire(missing).ok());
  EXPECT_TRUE(fs::is_regular_file(fs::path(missing) / ".lock"));
  // A directory that cannot be made (a file is in the way).
  std::ofstream(temp.File("file")) << "x";
  DirectoryLock blocked;
  const Status locked = blocked.Acquire(temp.File("file/run"));
  ASSERT_FALSE(locked.ok());
  EXPECT_NE(locked.error().find(temp.File("file")), std::string::npos) << locked.error();
}

TEST(RunDir, StaleTemporariesOfOneDirectoryOnly) {
  const TempDir temp;
  std::ofstream(temp.File("a.ckpt.tmp.12")) << "x";
  fs::create_directories(temp.Path() / "sub");
  std::ofstream(temp.File("sub/b.vzs.tmp.13")) << "x";
  std::vector<std::string> errors;
  const std::vector<std::string> removed =
      RemoveStaleTemporaries(temp.Str(), &errors, /*recursive=*/false);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0], temp.File("a.ckpt.tmp.12"));
  EXPECT_TRUE(fs::exists(temp.File("sub/b.vzs.tmp.13")));
}

}  // namespace
}  // namespace veletas::util
