// util/text.h: the one percentage, duration and byte-to-hex format of the project.
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

TEST(FormatDuration, SecondsMinutesAndHours) {
  EXPECT_EQ(FormatDuration(0), "0s");
  EXPECT_EQ(FormatDuration(12.4), "12s");
  EXPECT_EQ(FormatDuration(59.6), "1m00s");  // rounded to the second
  EXPECT_EQ(FormatDuration(187), "3m07s");
  EXPECT_EQ(FormatDuration(3600), "1h00m");
  EXPECT_EQ(FormatDuration(3720 + 59), "1h02m");
  EXPECT_EQ(FormatDuration(100 * 3600.0), "100h00m");
}

TEST(FormatDuration, UnknownIsAQuestionMark) {
  EXPECT_EQ(FormatDuration(-1), "?");
  EXPECT_EQ(FormatDuration(-0.001), "?");
}

TEST(HexString, TwoLowerCaseDigitsPerByteInOrder) {
  const uint8_t bytes[] = {0x00, 0x0f, 0xa0, 0xff, 0x5c};
  EXPECT_EQ(HexString(bytes), "000fa0ff5c");
  EXPECT_EQ(HexString({}), "");
}

TEST(Text, ClosestNameSuggestsOnlyNearNames) {
  const std::vector<std::string> names = {"--size", "--rules", "--simulations", "--seed"};
  EXPECT_EQ(ClosestName("--sizee", names), "--size");
  EXPECT_EQ(ClosestName("--rule", names), "--rules");
  EXPECT_EQ(ClosestName("--simulation", names), "--simulations");
  EXPECT_EQ(ClosestName("--frobnicate", names), "");
  EXPECT_EQ(ClosestName("x", {"y"}), "y");  // one edit is always near enough
  EXPECT_EQ(ClosestName("ab", {"xy"}), "");
  EXPECT_EQ(ClosestName("plya", {"play", "pool"}), "play");  // a swap is two edits
  EXPECT_EQ(ClosestName("anything", {}), "");
}

TEST(Text, TrimRemovesSpacesTabsAndLineEndsAroundOnly) {
  EXPECT_EQ(Trim(" \t e3/e4 b4 \r\n"), "e3/e4 b4");
  EXPECT_EQ(Trim("a"), "a");
  EXPECT_EQ(Trim(" \r\n\t "), "");
  EXPECT_EQ(Trim(""), "");
}

}  // namespace
}  // namespace veletas::util
