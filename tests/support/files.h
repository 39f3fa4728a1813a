// File and process helpers shared by the test binaries (header-only).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"
#include "util/atomic_file.h"
#include "util/result.h"

namespace veletas::test_support {

// The whole content of `path` ("" when it cannot be read).
inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "" for success, else the error's message: for EXPECT_EQ(ErrorText(status), "").
template <class T>
std::string ErrorText(const util::Result<T>& r) {
  return r.ok() ? std::string() : r.error();
}

// Reads the whole of `path` into `out` (util::ReadFile); for ASSERT_TRUE, with the error as
// the failure message.
inline ::testing::AssertionResult ReadInto(const std::string& path, std::string& out) {
  auto read = util::ReadFile(path);
  if (!read) return ::testing::AssertionFailure() << read.error();
  out = std::move(read.value());
  return ::testing::AssertionSuccess();
}

// The lines, each ended by a newline: for searching a list of notes.
inline std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

struct CommandOutput {
  int code = -1;  // the exit code, -1 when the command did not exit normally
  std::string out, err;
};

// Runs the shell command line `command` with standard output and error captured in files
// of `dir` ("stdout", "stderr"). Not thread-safe for one `dir`.
inline CommandOutput RunCommand(const std::string& command, const TempDir& dir) {
  const std::string out = dir.File("stdout"), err = dir.File("stderr");
  const int status = std::system((command + " > " + out + " 2> " + err).c_str());
  CommandOutput o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = ReadAll(out);
  o.err = ReadAll(err);
  return o;
}

}  // namespace veletas::test_support
