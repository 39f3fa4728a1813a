#include <gtest/gtest.h>
TEST(Smoke, Ok) { EXPECT_EQ(1, 1); }
