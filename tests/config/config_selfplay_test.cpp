// The `selfplay` config section: defaults, every key read, and each key's range and type
// checked with the file, line and key in the error.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "tests/config/config_test_util.h"

namespace veletas::config {
namespace {

std::string SelfplayError(const std::string& yaml, selfplay::SelfplayConfig& out) {
  return testing::ParseError("selfplay", yaml, ParseSelfplaySection, out);
}

TEST(ConfigSelfplay, EmptySectionKeepsTheDefaults) {
  selfplay::SelfplayConfig c;
  c.threads = 99;  // what the parser leaves alone must stay as it was
  ASSERT_EQ(SelfplayError("", c), "");
  const selfplay::SelfplayConfig d;
  EXPECT_EQ(c.threads, 99);
  EXPECT_EQ(c.games_in_flight, d.games_in_flight);
  EXPECT_EQ(c.leaves_per_search, d.leaves_per_search);
  EXPECT_EQ(c.full_simulations, d.full_simulations);
  EXPECT_EQ(c.cheap_simulations, d.cheap_simulations);
  EXPECT_EQ(c.full_search_probability, d.full_search_probability);
  EXPECT_EQ(c.setup_full_search, d.setup_full_search);
  EXPECT_EQ(c.setup_temperature, d.setup_temperature);
  EXPECT_EQ(c.setup_record_probability, d.setup_record_probability);
  EXPECT_EQ(c.setup_value_of_played, d.setup_value_of_played);
  EXPECT_FALSE(d.setup_value_of_played);
  EXPECT_EQ(c.resign_false_positive_target, d.resign_false_positive_target);
  EXPECT_EQ(c.games_per_file, d.games_per_file);
  EXPECT_EQ(c.resign_threshold, d.resign_threshold);
  EXPECT_EQ(c.resign_consecutive, d.resign_consecutive);
  EXPECT_EQ(c.no_resign_fraction, d.no_resign_fraction);
  EXPECT_EQ(c.seed, d.seed);
}

TEST(ConfigSelfplay, ReadsEveryKey) {
  selfplay::SelfplayConfig c;
  const std::string yaml =
      "  threads: 3\n  games_in_flight: 17\n  leaves_per_search: 6\n"
      "  full_simulations: 400\n  cheap_simulations: 50\n  full_search_probability: 0.5\n"
      "  setup_full_search: false\n  setup_temperature: 1.5\n  setup_record_probability: 0.3\n"
      "  setup_value_target: played\n  games_per_file: 250\n"
      "  resign_threshold: -0.95\n  resign_consecutive: 5\n  no_resign_fraction: 0.2\n"
      "  resign_false_positive_target: 0.1\n"
      "  seed: 12345678901\n";
  ASSERT_EQ(SelfplayError(yaml, c), "");
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.games_in_flight, 17);
  EXPECT_EQ(c.leaves_per_search, 6);
  EXPECT_EQ(c.full_simulations, 400);
  EXPECT_EQ(c.cheap_simulations, 50);
  EXPECT_EQ(c.full_search_probability, 0.5f);
  EXPECT_FALSE(c.setup_full_search);
  EXPECT_EQ(c.setup_temperature, 1.5f);
  EXPECT_EQ(c.setup_record_probability, 0.3f);
  EXPECT_TRUE(c.setup_value_of_played);
  EXPECT_EQ(c.games_per_file, 250);
  EXPECT_EQ(c.resign_threshold, -0.95f);
  EXPECT_EQ(c.resign_consecutive, 5);
  EXPECT_EQ(c.no_resign_fraction, 0.2f);
  EXPECT_EQ(c.resign_false_positive_target, 0.1f);
  EXPECT_EQ(c.seed, 12345678901ULL);
}

TEST(ConfigSelfplay, RejectsOutOfRangeValuesNamingFileLineAndKey) {
  struct Case {
    const char* yaml;
    const char* expected;  // part of the error
  };
  const Case cases[] = {
      {"  threads: 0\n", "test.yaml:2: selfplay.threads: 0 is out of range [1, 256]"},
      {"  games_in_flight: 0\n", "selfplay.games_in_flight: 0 is out of range"},
      {"  leaves_per_search: 1025\n", "selfplay.leaves_per_search: 1025 is out of range"},
      {"  full_simulations: 0\n", "selfplay.full_simulations: 0 is out of range"},
      {"  cheap_simulations: 0\n", "selfplay.cheap_simulations: 0 is out of range"},
      {"  full_simulations: 100\n  cheap_simulations: 101\n",
       "test.yaml:3: selfplay.cheap_simulations: 101 is more than full_simulations (100)"},
      {"  full_search_probability: 1.1\n", "selfplay.full_search_probability: 1.1 is out of range"},
      {"  setup_full_search: 2\n", "selfplay.setup_full_search: expected true or false"},
      {"  setup_temperature: -0.5\n", "selfplay.setup_temperature: -0.5 is out of range"},
      {"  setup_record_probability: 1.5\n",
       "selfplay.setup_record_probability: 1.5 is out of range [0, 1]"},
      {"  setup_value_target: best\n", "test.yaml:2: selfplay.setup_value_target:"},
      {"  resign_false_positive_target: 0.6\n",
       "selfplay.resign_false_positive_target: 0.6 is out of range [0, 0.5]"},
      {"  pie_swap_prior: 0.5\n", "unknown key \"selfplay.pie_swap_prior\""},
      {"  games_per_file: 0\n", "selfplay.games_per_file: 0 is out of range"},
      {"  resign_threshold: -1.5\n", "selfplay.resign_threshold: -1.5 is out of range [-1, 1]"},
      {"  resign_consecutive: 0\n", "selfplay.resign_consecutive: 0 is out of range"},
      {"  no_resign_fraction: 2\n", "selfplay.no_resign_fraction: 2 is out of range"},
      {"  seed: -1\n", "selfplay.seed: -1 is out of range"},
      {"  threads: two\n", "selfplay.threads: expected an integer"},
      {"  threads: 2\n  workers: 3\n", "test.yaml:3: unknown key \"selfplay.workers\""},
  };
  for (const Case& c : cases) {
    selfplay::SelfplayConfig out;
    const std::string error = SelfplayError(c.yaml, out);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.yaml << " gave: " << error;
  }
}

TEST(ConfigSelfplay, WholeConfigHasTheSection) {
  auto config = LoadConfigFromString("selfplay:\n  games_per_file: 7\n", "run.yaml");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config.value().selfplay.games_per_file, 7);
  EXPECT_NE(config.value().resolved_yaml.find("resign_consecutive: 3"), std::string::npos)
      << config.value().resolved_yaml;
  auto bad = LoadConfigFromString("game:\n  size: 7\nselfplay:\n  threads: 999\n", "run.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("run.yaml:4: selfplay.threads: 999 is out of range"),
            std::string::npos)
      << bad.error();
}

}  // namespace
}  // namespace veletas::config
