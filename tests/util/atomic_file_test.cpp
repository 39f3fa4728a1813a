#include "util/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

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

TEST(AtomicFile, ReadingADirectoryOrADeviceIsBadInputNamingIt) {
  TempDir dir;
  const auto directory = ReadFile(dir.Str());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error(), dir.Str() + ": is a directory, expected a file");
  EXPECT_EQ(directory.exit_code(), 2);
  const auto device = ReadFile("/dev/zero");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error(), "/dev/zero: is not a regular file, expected a file");
}

// Writes `parts` into the named pipe `fifo` once a reader has opened it, pausing before
// each part (so the reader waits for a writer that has not come yet, then for more bytes).
void FeedPipe(const std::string& fifo, const std::vector<std::string>& parts) {
  int fd;
  while ((fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK)) < 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  for (const std::string& part : parts) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (::write(fd, part.data(), part.size()) != static_cast<ssize_t>(part.size())) break;
  }
  ::close(fd);
}

// A named pipe (a shell's process substitution, a test's SwappedFile) is read to its end,
// however late its writer comes and however it splits its writes.
TEST(AtomicFile, ANamedPipeIsReadToItsEnd) {
  TempDir dir;
  const std::string fifo = dir.File("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::string> parts = {std::string(70000, 'a'), "", std::string(1000, 'b')};
  std::thread writer([&] { FeedPipe(fifo, parts); });
  const auto read = ReadFile(fifo, 71000);
  writer.join();
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value(), parts[0] + parts[2]);
}

// More than the limit from a pipe is bad input, refused once the limit is passed.
TEST(AtomicFile, ANamedPipeBeyondTheLimitIsRefused) {
  std::signal(SIGPIPE, SIG_IGN);  // the writer may find the reader gone
  TempDir dir;
  const std::string fifo = dir.File("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { FeedPipe(fifo, {std::string(600, 'p'), std::string(600, 'q')}); });
  const auto read = ReadFile(fifo, 1000);
  writer.join();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), fifo + ": more than the 1000 bytes this reader accepts");
  EXPECT_EQ(read.exit_code(), 2);
}

TEST(AtomicFile, AFileLargerThanTheLimitIsRefusedBeforeReading) {
  TempDir dir;
  const std::string path = dir.File("big");
  ASSERT_TRUE(WriteFileAtomic(path, std::string(1000, 'x')).ok());
  const auto read = ReadFile(path, 999);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), path + ": 1000 bytes, more than the 999 this reader accepts");
  ASSERT_TRUE(ReadFile(path, 1000).ok());
  EXPECT_EQ(ReadFile(path, 1000).value().size(), 1000u);
}

// A link planted at the temporary's name (another user, a shared run directory) is
// replaced, never followed: the file it points to keeps its content.
TEST(AtomicFile, APlantedSymlinkAtTheTemporaryIsNotFollowed) {
  TempDir dir;
  const std::string victim = dir.File("victim");
  ASSERT_TRUE(WriteFileAtomic(victim, "precious").ok());
  const std::string path = dir.File("state.json");
  fs::create_symlink(victim, TemporaryPath(path));
  ASSERT_EQ(test_support::ErrorText(WriteFileAtomic(path, "new")), "");
  EXPECT_EQ(test_support::ReadAll(victim), "precious");
  EXPECT_EQ(test_support::ReadAll(path), "new");
  EXPECT_FALSE(fs::exists(fs::symlink_status(TemporaryPath(path))));
}

TEST(AtomicFile, AppendsGoToNewOrExistingFilesButNeverThroughASymlink) {
  TempDir dir;
  const std::string journal = dir.File("j.part");
  ASSERT_TRUE(AppendFile(journal, "a").ok());
  ASSERT_TRUE(AppendFile(journal, "b").ok());
  EXPECT_EQ(test_support::ReadAll(journal), "ab");
  const std::string victim = dir.File("victim");
  ASSERT_TRUE(WriteFileAtomic(victim, "precious").ok());
  const std::string link = dir.File("link.part");
  fs::create_symlink(victim, link);
  const Status appended = AppendFile(link, "x");
  ASSERT_FALSE(appended.ok());
  EXPECT_NE(appended.error().find(link), std::string::npos) << appended.error();
  EXPECT_EQ(test_support::ReadAll(victim), "precious");
}

TEST(AtomicFile, CreateDirectoriesMakesParentsAndRefusesAFileInTheWay) {
  TempDir dir;
  ASSERT_TRUE(CreateDirectories(dir.File("a/b/c")).ok());
  EXPECT_TRUE(fs::is_directory(dir.File("a/b/c")));
  ASSERT_TRUE(CreateDirectories(dir.File("a/b/c")).ok());  // exists: fine
  ASSERT_TRUE(WriteFileAtomic(dir.File("f"), "x").ok());
  const Status blocked = CreateDirectories(dir.File("f/g"));
  ASSERT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.error(), dir.File("f") + ": exists and is not a directory");
  EXPECT_TRUE(SyncDirectory(dir.Str()).ok());
}

}  // namespace
}  // namespace veletas::util
