// util/text.h: the one percentage format of the project.
#include <gtest/gtest.h>

#include "util/text.h"

namespace veletas::util {
namespace {

TEST(Percent, PartOfWhole) {
  EXPECT_DOUBLE_EQ(Percent(1, 4), 25.0);
  EXPECT_DOUBLE_EQ(Percent(3, 3), 100.0);
  EXPECT_DOUBLE_EQ(Percent(5, 0), 0.0);  // nothing to divide: no NaN in a summary
  EXPECT_DOUBLE_EQ(Percent(5, -1), 0.0);
}

TEST(Percent, FormatsAFractionWithOneDecimal) {
  EXPECT_EQ(FormatPercent(0.573), "57.3%");
  EXPECT_EQ(FormatPercent(0.05), "5.0%");
  EXPECT_EQ(FormatPercent(1.0), "100.0%");
  EXPECT_EQ(FormatPercent(0.0), "0.0%");
  EXPECT_EQ(FormatPercent(0.9996f), "100.0%");
}

}  // namespace
}  // namespace veletas::util
