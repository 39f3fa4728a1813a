// StopSignals: SIGINT and SIGTERM set the flag while it lives; the handlers from before
// are back after it.
#include "util/stop_signals.h"

#include <gtest/gtest.h>

#include <csignal>

namespace veletas::util {
namespace {

volatile std::sig_atomic_t g_earlier = 0;
extern "C" void Earlier(int signal) { g_earlier = signal; }

TEST(StopSignals, SetsTheFlagWhileItLivesThenRestoresTheHandlers) {
  const auto int_before = std::signal(SIGINT, Earlier);
  const auto term_before = std::signal(SIGTERM, Earlier);
  {
    StopSignals stop;
    EXPECT_FALSE(stop.Stopped());
    std::raise(SIGINT);
    EXPECT_TRUE(stop.Stopped());
    EXPECT_TRUE(stop.Flag()->load());
    EXPECT_EQ(g_earlier, 0);
  }
  {
    StopSignals again;  // a new one starts cleared
    EXPECT_FALSE(again.Stopped());
    std::raise(SIGTERM);
    EXPECT_TRUE(again.Stopped());
    EXPECT_EQ(g_earlier, 0);
  }
  std::raise(SIGTERM);
  EXPECT_EQ(g_earlier, SIGTERM);
  std::raise(SIGINT);
  EXPECT_EQ(g_earlier, SIGINT);
  std::signal(SIGINT, int_before);
  std::signal(SIGTERM, term_before);
}

}  // namespace
}  // namespace veletas::util
