// util/host.h: the host name other processes see.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "util/host.h"

namespace veletas::util {
namespace {

TEST(HostName, IsTheKernelsHostName) {
  std::ifstream in("/proc/sys/kernel/hostname");
  std::string expected;
  if (!std::getline(in, expected)) GTEST_SKIP() << "no /proc/sys/kernel/hostname here";
  EXPECT_EQ(HostName(), expected);
  EXPECT_FALSE(HostName().empty());
}

}  // namespace
}  // namespace veletas::util
