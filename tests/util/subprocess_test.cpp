#include "util/subprocess.h"

#include <gtest/gtest.h>

#include <chrono>

namespace veletas::util {
namespace {

TEST(SubprocessTest, CapturesOutputAndExitCode) {
  auto r = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().exit_code, 3);
  EXPECT_NE(r.value().output.find("out\n"), std::string::npos);
  EXPECT_NE(r.value().output.find("err\n"), std::string::npos);
  EXPECT_FALSE(r.value().output_cut);
}

TEST(SubprocessTest, AProgramThatCannotRunIsNamed) {
  auto r = RunProcess({"/nonexistent/program", "x"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().exit_code, kCannotRun);
  EXPECT_EQ(r.value().output.rfind("/nonexistent/program: cannot run: ", 0), 0u)
      << r.value().output;
  EXPECT_FALSE(RunProcess({}).ok());
}

TEST(SubprocessTest, ASignalIsReportedAs128PlusItsNumber) {
  auto r = RunProcess({"sh", "-c", "kill -9 $$"});
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.value().exit_code, 128 + 9);
}

TEST(SubprocessTest, OutputIsCappedAndAHangIsStopped) {
  ProcessOptions cap;
  cap.max_output = 100;
  auto big = RunProcess({"sh", "-c", "head -c 100000 /dev/zero"}, cap);
  ASSERT_TRUE(big.ok()) << big.error();
  EXPECT_EQ(big.value().output.size(), 100u);
  EXPECT_TRUE(big.value().output_cut);

  // A program that keeps running (output or not) is killed at the time limit.
  ProcessOptions quick;
  quick.timeout_seconds = 0.3;
  const auto start = std::chrono::steady_clock::now();
  auto hang = RunProcess({"sleep", "30"}, quick);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(hang.ok());
  EXPECT_EQ(hang.kind(), ErrorKind::kFailure);
  EXPECT_NE(hang.error().find("sleep: still running"), std::string::npos) << hang.error();
  EXPECT_LT(seconds, 20.0);  // stopped, not waited for
  // One that closes its output but stays alive is stopped as well.
  auto detached = RunProcess({"sh", "-c", "exec >/dev/null 2>&1; sleep 30"}, quick);
  EXPECT_FALSE(detached.ok());
}

}  // namespace
}  // namespace veletas::util
