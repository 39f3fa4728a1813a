// The `cluster` config section: values read, and the ranges of config::ClusterConfig's
// Validate() reported with the file, line and key.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "tests/config/config_test_util.h"

namespace veletas::config {
namespace {

std::string ClusterError(const std::string& yaml, ClusterConfig& out) {
  return testing::ParseError("cluster", yaml, ParseClusterSection, out);
}

TEST(ConfigCluster, ReadsEveryKey) {
  ClusterConfig c;
  const std::string yaml =
      "  redis: redis://10.0.0.5:6380\n  run: big-run\n  auth_file: /etc/vz.auth\n"
      "  local_selfplay: true\n  accept_previous_networks: 2\n  max_queued_games: 5000\n"
      "  arena_games_per_task: 4\n  task_timeout_seconds: 600\n  heartbeat_seconds: 1\n"
      "  task_max_seconds: 7200\n"
      "  max_entry_bytes: 1048576\n  ingest_batch: 32\n"
      "  max_worker_share: 0.25\n"
      "  spot_check_fraction: 0.05\n"
      "  spot_check_policy_tv: 0.03\n"
      "  spot_check_value: 0.01\n"
      "  spot_check_resign_margin: 0.25\n";
  ASSERT_EQ(ClusterError(yaml, c), "");
  EXPECT_EQ(c.redis, "redis://10.0.0.5:6380");
  EXPECT_EQ(c.run, "big-run");
  EXPECT_TRUE(c.local_selfplay);
  EXPECT_EQ(c.accept_previous_networks, 2);
  EXPECT_EQ(c.max_queued_games, 5000);
  EXPECT_EQ(c.arena_games_per_task, 4);
  EXPECT_EQ(c.task_timeout_seconds, 600);
  EXPECT_EQ(c.task_max_seconds, 7200);
  EXPECT_EQ(c.heartbeat_seconds, 1);
  EXPECT_EQ(c.max_entry_bytes, 1048576);
  EXPECT_EQ(c.ingest_batch, 32);
  EXPECT_EQ(c.max_worker_share, 0.25);
  EXPECT_EQ(c.spot_check_fraction, 0.05);
  EXPECT_EQ(c.spot_check_policy_tv, 0.03);
  EXPECT_EQ(c.spot_check_value, 0.01);
  EXPECT_EQ(c.spot_check_resign_margin, 0.25);
  EXPECT_TRUE(ClusterConfig{}.Validate().ok());  // no cluster
}

TEST(ConfigCluster, BadValuesNameTheKeyAndLine) {
  struct Case {
    std::string yaml, expected;
  };
  const std::string redis = "  redis: redis://h:6379\n";
  const Case cases[] = {
      {"  run: x\n", "test.yaml:2: cluster.redis: expected redis://HOST[:PORT]"},
      {"  redis: http://h\n", "cluster.redis: \"http://h\": expected redis://HOST[:PORT]"},
      {redis + "  run: ../up\n", "cluster.run:"},
      {redis + "  accept_previous_networks: -1\n",
       "test.yaml:3: cluster.accept_previous_networks: -1 is out of range [0, 1000]"},
      {redis + "  max_queued_games: 100000001\n", "cluster.max_queued_games: 100000001 is out"},
      {redis + "  arena_games_per_task: 0\n", "cluster.arena_games_per_task: 0 is out"},
      {redis + "  task_timeout_seconds: 0.5\n", "cluster.task_timeout_seconds: 0.5 is out"},
      {redis + "  heartbeat_seconds: 0\n", "cluster.heartbeat_seconds: 0 is out"},
      {redis + "  task_max_seconds: 0\n", "cluster.task_max_seconds: 0 is out"},
      // Removed: a spooled game now stays until the learner has stored it.
      {redis + "  spool_grace_seconds: 5\n", "unknown key \"cluster.spool_grace_seconds\""},
      {redis + "  max_entry_bytes: 10\n", "cluster.max_entry_bytes: 10 is out"},
      {redis + "  ingest_batch: 10001\n", "cluster.ingest_batch: 10001 is out"},
      {redis + "  max_worker_share: 0\n", "cluster.max_worker_share: 0 is out of range (0, 1]"},
      {redis + "  max_worker_share: 1.5\n", "cluster.max_worker_share: 1.5 is out"},
      {redis + "  spot_check_fraction: 1.5\n", "cluster.spot_check_fraction: 1.5 is out"},
      {redis + "  spot_check_value: -0.1\n", "cluster.spot_check_value: -0.1 is out"},
      {redis + "  spot_check_resign_margin: 3\n", "cluster.spot_check_resign_margin: 3 is out"},
      {redis + "  workers: 3\n", "unknown key \"cluster.workers\""},
  };
  for (const Case& c : cases) {
    ClusterConfig out;
    const std::string error = ClusterError(c.yaml, out);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.yaml << " gave: " << error;
  }
}

}  // namespace
}  // namespace veletas::config
