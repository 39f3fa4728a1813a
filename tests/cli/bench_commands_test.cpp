// `veletas bench spot-check` end to end with a fresh small network: honest self-play has no
// false alarm and no difference at all (the learner's load evaluates as the worker's), and
// bad input exits 2 naming what is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "tests/cli/run_veletas.h"

namespace veletas::cli_test {
namespace {

// A config for fast self-play of 7x7 with a small network, and that network (init-model).
struct SmallRun {
  std::string config, model;
};

SmallRun FreshRun(const std::string& dir) {
  SmallRun r{dir + "/small.yaml", dir + "/g0.ckpt"};
  std::ofstream(r.config) << "game:\n  rules: standard\n  size: 7\nmodel:\n  blocks: 1\n"
                             "  channels: 16\n  head_channels: 8\n  value_hidden: 16\n"
                             "search:\n  algorithm: gumbel\n  simulations: 16\n"
                             "selfplay:\n  threads: 1\n  games_in_flight: 4\n"
                             "  full_simulations: 16\n  cheap_simulations: 4\n";
  const Output init = RunVeletas({"init-model", "--config", r.config, "--out", r.model});
  EXPECT_EQ(init.code, 0) << init.err;
  return r;
}

TEST(BenchSpotCheckCli, HonestSelfplayHasNoFalseAlarmAndNoDifference) {
  const SmallRun run = FreshRun(::testing::TempDir());
  const Output o = RunVeletas(
      {"bench", "spot-check", "--config", run.config, "--model", run.model, "--positions", "200"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find(": 0 false alarms\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("largest differences: policy target 0.00000 (tolerance 0.020), value of a "
                       "single-visit action 0.00000"),
            std::string::npos)
      << o.out;
  // Every resignation of the honest games stands (a fresh network may resign none).
  EXPECT_TRUE(std::regex_search(o.out, std::regex("checked [0-9]+ resignations: 0 false alarms")))
      << o.out;
}

TEST(BenchSpotCheckCli, BadInputExitsTwoNamingIt) {
  const SmallRun run = FreshRun(::testing::TempDir());
  Output o = RunVeletas({"bench", "spot-check", "--config", run.config});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--model"), std::string::npos) << o.err;
  o = RunVeletas(
      {"bench", "spot-check", "--config", run.config, "--model", run.model, "--positions", "0"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--positions"), std::string::npos) << o.err;
  o = RunVeletas(
      {"bench", "spot-check", "--config", run.config, "--model", run.config + ".missing"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("small.yaml.missing"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace veletas::cli_test
