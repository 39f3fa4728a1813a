#include "util/settings_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace veletas::util {
namespace {

std::string ErrorOf(const SettingsCheck& c) {
  const Status s = c.Result();
  return s.ok() ? "" : s.error();
}

// Every failed key is in the result, a line each in the order checked (issue 47: a config's
// every error at once), each key once.
TEST(SettingsCheck, EveryFailedCheckNamesItsKeyAndRange) {
  SettingsCheck ok;
  ok.Int("threads", 4, 1, 256).Real("alpha", 0.5, 0.0, 0.5, Ends::kOpenLow);
  EXPECT_TRUE(ok.Result().ok());

  SettingsCheck c;
  c.Int("threads", 4, 1, 256).Int("games", 0, 1, 100).Real("alpha", 2.0, 0.0, 1.0);
  EXPECT_EQ(ErrorOf(c), "games: 0 is out of range [1, 100]\nalpha: 2 is out of range [0, 1]");
  EXPECT_EQ(c.Result().exit_code(), 2);

  EXPECT_EQ(ErrorOf(SettingsCheck().Real("lr", 0.0, 0.0, 10.0, Ends::kOpenLow)),
            "lr: 0 is out of range (0, 10]");
  EXPECT_EQ(ErrorOf(SettingsCheck().Real("m", 1.0, 0.0, 1.0, Ends::kOpenHigh)),
            "m: 1 is out of range [0, 1)");
  EXPECT_EQ(ErrorOf(SettingsCheck().Real("x", NAN, -1.0, 1.0)), "x: nan is out of range [-1, 1]");
  EXPECT_EQ(ErrorOf(SettingsCheck().IntList("anchors", {5, 0, 70}, 1, 10)),
            "anchors: 0 is out of range [1, 10]");
  EXPECT_EQ(ErrorOf(SettingsCheck().That(false, "cheap", "300 is more than full (200)")),
            "cheap: 300 is more than full (200)");
}

TEST(SettingsCheck, FloatSettingsMayEqualTheirEndsAndShowShortForms) {
  // 0.99f is above the double 0.99; the float's own end is used.
  EXPECT_TRUE(SettingsCheck().Real("prior", 0.99f, 0.0, 0.99).Result().ok());
  EXPECT_EQ(ErrorOf(SettingsCheck().Real("prior", 1.0f, 0.0, 0.99)),
            "prior: 1 is out of range [0, 0.99]");
  EXPECT_EQ(ErrorOf(SettingsCheck().Real("t", -0.1f, 0.0, 100.0)),
            "t: -0.1 is out of range [0, 100]");
}

TEST(SettingsCheck, NestedResultsArePrefixedWithTheirSection) {
  const Status inner = SettingsCheck().Int("elo1", 3000, -2000, 2000).Result();
  EXPECT_EQ(ErrorOf(SettingsCheck().Nested("gate", inner)),
            "gate.elo1: 3000 is out of range [-2000, 2000]");
  EXPECT_EQ(ErrorOf(SettingsCheck().Nested("", inner)), "elo1: 3000 is out of range [-2000, 2000]");
  EXPECT_EQ(ErrorOf(SettingsCheck().Nested("gate", Status::Error("no key here"))),
            "gate: no key here");
  EXPECT_TRUE(SettingsCheck().Nested("gate", Ok()).Result().ok());
  // Every line of a nested result, after the failures before it.
  const Status two =
      SettingsCheck().Int("elo1", 3000, -2000, 2000).Int("elo0", -3000, -2000, 2000).Result();
  EXPECT_EQ(ErrorOf(SettingsCheck().Int("a", 0, 1, 2).Nested("gate", two)),
            "a: 0 is out of range [1, 2]\ngate.elo1: 3000 is out of range [-2000, 2000]\n"
            "gate.elo0: -3000 is out of range [-2000, 2000]");
}

TEST(SettingsCheck, SettingKeyReadsTheKeyOfAMessage) {
  EXPECT_EQ(SettingKey("gate.elo1: 5 must be greater"), "gate.elo1");
  EXPECT_EQ(SettingKey("threads: 0 is out of range"), "threads");
  EXPECT_EQ(SettingKey("a sentence: with a colon"), "");
  EXPECT_EQ(SettingKey("no colon"), "");
  EXPECT_EQ(SettingKey(": x"), "");
  EXPECT_EQ(FormatSetting(0.9), "0.9");
  EXPECT_EQ(FormatSetting(0.1f), "0.1");
}

}  // namespace
}  // namespace veletas::util
