// The `search` and `evaluator` config sections: defaults, values read, and every key's
// range and type checked with the file, line and key in the error.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "tests/config/config_test_util.h"

namespace veletas::config {
namespace {

std::string SearchError(const std::string& yaml, search::SearchConfig& out) {
  return testing::ParseError("search", yaml, ParseSearchSection, out);
}

std::string EvaluatorError(const std::string& yaml, search::BatchingConfig& out) {
  return testing::ParseError("evaluator", yaml, ParseEvaluatorSection, out);
}

TEST(ConfigSearch, EmptySectionKeepsTheDefaults) {
  search::SearchConfig c;
  ASSERT_EQ(SearchError("", c), "");
  const search::SearchConfig d;
  EXPECT_EQ(c.algorithm, d.algorithm);
  EXPECT_EQ(c.simulations, d.simulations);
  EXPECT_EQ(c.c_puct_init, d.c_puct_init);
  EXPECT_EQ(c.gumbel_c_scale, d.gumbel_c_scale);
  EXPECT_EQ(c.root_noise, d.root_noise);
  search::BatchingConfig b;
  ASSERT_EQ(EvaluatorError("", b), "");
  EXPECT_EQ(b.max_batch, search::BatchingConfig{}.max_batch);
}

TEST(ConfigSearch, ReadsEveryKey) {
  search::SearchConfig c;
  const std::string yaml =
      "  algorithm: gumbel\n  simulations: 64\n  leaves_per_batch: 4\n  c_puct_init: 2.5\n"
      "  c_puct_base: 1000\n  fpu_reduction: 0.5\n  root_fpu_reduction: 0\n"
      "  virtual_loss: 2\n  root_noise: false\n  dirichlet_alpha_total: 5\n"
      "  dirichlet_epsilon: 0.1\n  temperature: 0.5\n  temperature_turns: 3\n"
      "  final_temperature: 0.2\n  gumbel_considered: 8\n  gumbel_c_visit: 40\n"
      "  gumbel_c_scale: 1\n  reuse_tree: false\n  solver: false\n  max_nodes: 50000\n";
  ASSERT_EQ(SearchError(yaml, c), "");
  EXPECT_EQ(c.algorithm, search::Algorithm::kGumbel);
  EXPECT_EQ(c.simulations, 64);
  EXPECT_EQ(c.leaves_per_batch, 4);
  EXPECT_EQ(c.c_puct_init, 2.5f);
  EXPECT_EQ(c.c_puct_base, 1000.0f);
  EXPECT_EQ(c.fpu_reduction, 0.5f);
  EXPECT_EQ(c.root_fpu_reduction, 0.0f);
  EXPECT_EQ(c.virtual_loss, 2.0f);
  EXPECT_FALSE(c.root_noise);
  EXPECT_EQ(c.dirichlet_alpha_total, 5.0f);
  EXPECT_EQ(c.dirichlet_epsilon, 0.1f);
  EXPECT_EQ(c.temperature, 0.5f);
  EXPECT_EQ(c.temperature_turns, 3);
  EXPECT_EQ(c.final_temperature, 0.2f);
  EXPECT_EQ(c.gumbel_considered, 8);
  EXPECT_EQ(c.gumbel_c_visit, 40.0f);
  EXPECT_EQ(c.gumbel_c_scale, 1.0f);
  EXPECT_FALSE(c.reuse_tree);
  EXPECT_FALSE(c.solver);
  EXPECT_EQ(c.max_nodes, 50000);
  search::BatchingConfig b;
  ASSERT_EQ(EvaluatorError("  max_batch: 512\n  max_wait_us: 0\n  cache_size: 0\n", b), "");
  EXPECT_EQ(b.max_batch, 512);
  EXPECT_EQ(b.max_wait_us, 0);
  EXPECT_EQ(b.cache_size, 0);
}

TEST(ConfigSearch, RejectsOutOfRangeValuesNamingFileLineAndKey) {
  struct Case {
    const char* yaml;
    const char* expected;  // part of the error
  };
  const Case cases[] = {
      {"  simulations: 0\n", "test.yaml:2: search.simulations: 0 is out of range [1, 1000000]"},
      {"  leaves_per_batch: 2000\n", "search.leaves_per_batch: 2000 is out of range"},
      {"  c_puct_init: -1\n", "search.c_puct_init: -1 is out of range"},
      {"  c_puct_base: 0\n", "search.c_puct_base: 0 is out of range"},
      {"  fpu_reduction: 3\n", "search.fpu_reduction: 3 is out of range"},
      {"  root_fpu_reduction: -0.5\n", "search.root_fpu_reduction: -0.5 is out of range"},
      {"  virtual_loss: 11\n", "search.virtual_loss: 11 is out of range"},
      {"  dirichlet_alpha_total: 0\n", "search.dirichlet_alpha_total: 0 is out of range"},
      {"  dirichlet_epsilon: 1.5\n", "search.dirichlet_epsilon: 1.5 is out of range"},
      {"  temperature: -1\n", "search.temperature: -1 is out of range"},
      {"  temperature_turns: -1\n", "search.temperature_turns: -1 is out of range"},
      {"  final_temperature: 101\n", "search.final_temperature: 101 is out of range"},
      {"  gumbel_considered: 0\n", "search.gumbel_considered: 0 is out of range [1, 101]"},
      {"  gumbel_c_visit: -1\n", "search.gumbel_c_visit: -1 is out of range"},
      {"  gumbel_c_scale: 1001\n", "search.gumbel_c_scale: 1001 is out of range"},
      {"  algorithm: alphabeta\n", "search.algorithm: \"alphabeta\" is not one of: puct, gumbel"},
      {"  root_noise: maybe\n", "search.root_noise: expected true or false"},
      {"  simulations: many\n", "search.simulations: expected an integer"},
      {"  solver: true\n  depth: 3\n", "test.yaml:3: unknown key \"search.depth\""},
  };
  for (const Case& c : cases) {
    search::SearchConfig out;
    const std::string error = SearchError(c.yaml, out);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.yaml << " gave: " << error;
  }
  {  // No more nodes than this machine's memory holds, the limit named.
    search::SearchConfig out;
    const std::string error = SearchError("  max_nodes: 1099511627776\n", out);
    EXPECT_NE(error.find("search.max_nodes: 1099511627776 is more than this machine's memory "
                         "holds: at most " +
                         std::to_string(search::MaxNodesLimit()) + " nodes"),
              std::string::npos)
        << error;
  }
  const Case evaluator_cases[] = {
      {"  max_batch: 1\n", "evaluator.max_batch: 1 is out of range [2, 65536]"},
      {"  max_wait_us: -5\n", "evaluator.max_wait_us: -5 is out of range"},
      {"  cache_size: 99999999999\n", "evaluator.cache_size: 99999999999 is out of range"},
      {"  batch: 8\n", "unknown key \"evaluator.batch\""},
  };
  for (const Case& c : evaluator_cases) {
    search::BatchingConfig out;
    const std::string error = EvaluatorError(c.yaml, out);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.yaml << " gave: " << error;
  }
}

TEST(ConfigSearch, WholeConfigHasTheSections) {
  auto config =
      LoadConfigFromString("search:\n  simulations: 32\nevaluator:\n  max_batch: 64\n", "run.yaml");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config.value().search.simulations, 32);
  EXPECT_EQ(config.value().evaluator.max_batch, 64);
  EXPECT_NE(config.value().resolved_yaml.find("gumbel_considered: 16"), std::string::npos);
  auto bad = LoadConfigFromString("search:\n  simulations: 32\n  bogus: 1\n", "run.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("run.yaml:3: unknown key \"search.bogus\""), std::string::npos);
}

// Every unknown key of a file at once, each with the closest known key, and with a value
// error found after them.
TEST(ConfigSearch, EveryUnknownKeyIsReportedWithASuggestion) {
  auto bad = LoadConfigFromString(
      "search:\n  simulatons: 32\nselfplay:\n  threds: 2\nserach:\n  x: 1\n", "run.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("run.yaml:2: unknown key \"search.simulatons\" (did you mean "
                             "\"search.simulations\"?)"),
            std::string::npos)
      << bad.error();
  EXPECT_NE(bad.error().find(
                "run.yaml:4: unknown key \"selfplay.threds\" (did you mean \"selfplay.threads\"?)"),
            std::string::npos)
      << bad.error();
  EXPECT_NE(bad.error().find("run.yaml:5: unknown key \"serach\" (did you mean \"search\"?)"),
            std::string::npos)
      << bad.error();
  auto both =
      LoadConfigFromString("search:\n  simulatons: 32\ntraining:\n  batch_size: 0\n", "run.yaml");
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.error().find("unknown key \"search.simulatons\""), std::string::npos)
      << both.error();
  EXPECT_NE(both.error().find("run.yaml:4: training.batch_size"), std::string::npos)
      << both.error();
}

}  // namespace
}  // namespace veletas::config
