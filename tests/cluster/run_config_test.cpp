// cluster/tools/run_config.h: a run's config as the cluster's processes take it.
#include "cluster/tools/run_config.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace veletas::cluster {
namespace {

constexpr const char* kConfig =
    "game:\n  rules: standard\n  size: 7\nselfplay:\n  threads: 3\n  games_in_flight: 5\n"
    "pipeline:\n  games_per_generation: 40\n";

TEST(RunConfig, AWorkerTakesTheRunsSettingsWithItsOverrides) {
  config::Config c;
  auto plain = ReadRunConfig(kConfig, "run.yaml", {}, c);
  ASSERT_TRUE(plain.ok()) << plain.error();
  EXPECT_EQ(plain.value().size, 7);
  EXPECT_EQ(plain.value().selfplay.threads, 3);
  EXPECT_EQ(plain.value().max_queued_games, 80);  // two generations without cluster's own
  auto overridden = ReadRunConfig(kConfig, "run.yaml", {8, 2, model::Device::kCpu}, c);
  ASSERT_TRUE(overridden.ok()) << overridden.error();
  EXPECT_EQ(overridden.value().selfplay.threads, 8);
  EXPECT_EQ(overridden.value().arena.threads, 8);
  EXPECT_EQ(overridden.value().selfplay.games_in_flight, 2);
  EXPECT_EQ(c.model.device, model::Device::kCpu);
}

TEST(RunConfig, ABadConfigIsAnErrorNamingItsSource) {
  config::Config c;
  auto bad = ReadRunConfig("game:\n  size: 8\n", "the config of run r", {}, c);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("the config of run r"), std::string::npos) << bad.error();
}

TEST(RunConfig, TheWorkersDirectoryFollowsXdgStateHome) {
  const char* old = std::getenv("XDG_STATE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_STATE_HOME", "/state", 1);
  EXPECT_EQ(DefaultWorkerDir("r1"), "/state/veletas/worker-r1");
  if (old) {
    setenv("XDG_STATE_HOME", saved.c_str(), 1);
  } else {
    unsetenv("XDG_STATE_HOME");
  }
}

}  // namespace
}  // namespace veletas::cluster
