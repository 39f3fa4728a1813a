// The `pipeline` config section: defaults, promotion modes and their check, budgets, and
// errors naming the file, line and key.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "tests/config/config_test_util.h"

namespace veletas::config {
namespace {

std::string PipelineError(const std::string& yaml, PipelineConfig& out) {
  return testing::ParseError("pipeline", yaml, ParsePipelineSection, out);
}

TEST(ConfigPipeline, EmptySectionKeepsTheDefaults) {
  PipelineConfig p;
  ASSERT_EQ(PipelineError("", p), "");
  EXPECT_EQ(p.promotion, Promotion::kGate);
  EXPECT_EQ(p.check_games, 20);
  EXPECT_EQ(p.check_elo, 200.0);
  EXPECT_EQ(p.cpu_budget_minutes, 0.0);
}

TEST(ConfigPipeline, ReadsPromotionCheckAndBudgets) {
  PipelineConfig p;
  ASSERT_EQ(PipelineError("  promotion: latest\n  check_games: 30\n  check_elo: 150\n"
                          "  time_budget_minutes: 55\n  cpu_budget_minutes: 110\n",
                          p),
            "");
  EXPECT_EQ(p.promotion, Promotion::kLatest);
  EXPECT_EQ(p.check_games, 30);
  EXPECT_EQ(p.check_elo, 150.0);
  EXPECT_EQ(p.time_budget_minutes, 55.0);
  EXPECT_EQ(p.cpu_budget_minutes, 110.0);
  ASSERT_EQ(PipelineError("  promotion: always\n", p), "");
  EXPECT_EQ(p.promotion, Promotion::kAlways);
  EXPECT_STREQ(PromotionName(p.promotion), "always");
}

TEST(ConfigPipeline, RejectsBadValuesNamingTheKey) {
  const std::pair<std::string, std::string> cases[] = {
      {"  promotion: best\n",
       "test.yaml:2: pipeline.promotion: \"best\" is not one of: gate, latest, always"},
      {"  check_games: 21\n", "test.yaml:2: pipeline.check_games: 21 is odd"},
      {"  check_games: 0\n", "test.yaml:2: pipeline.check_games"},
      {"  check_elo: 0\n", "test.yaml:2: pipeline.check_elo"},
      {"  cpu_budget_minutes: -1\n", "test.yaml:2: pipeline.cpu_budget_minutes"},
      {"  gate: false\n", "gate"},  // the old switch is an unknown key now
  };
  for (const auto& [yaml, expected] : cases) {
    PipelineConfig p;
    const std::string error = PipelineError(yaml, p);
    EXPECT_NE(error.find(expected), std::string::npos) << yaml << " gave: " << error;
  }
}

}  // namespace
}  // namespace veletas::config
