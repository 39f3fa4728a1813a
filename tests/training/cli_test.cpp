// `veletas train` of the built binary (VELETAS_BINARY): a run over two data directories,
// and exit code 2 with a clear message for missing data, a bad checkpoint and a config
// that does not match the checkpoint.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/base/checkpoint_file.h"
#include "tests/training/test_util.h"

#ifndef VELETAS_BINARY
#error "VELETAS_BINARY must name the veletas executable"
#endif

namespace veletas::training {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

using Output = test_support::CommandOutput;

// Runs `veletas ARGS` (arguments without quotes or spaces) with output in `dir`.
Output RunVeletas(const TempDir& dir, const std::string& args) {
  return test_support::RunCommand(std::string(VELETAS_BINARY) + " " + args, dir);
}

std::string WriteConfig(const TempDir& dir, int channels) {
  const std::string path = dir.File("c" + std::to_string(channels) + ".yaml");
  std::ofstream(path) << "game:\n  size: 7\nmodel:\n  blocks: 1\n  channels: " << channels
                      << "\n  head_channels: 8\n  value_hidden: 16\ntraining:\n"
                         "  batch_size: 16\n  threads: 1\n  metrics_every: 2\n";
  return path;
}

TEST(TrainCommand, TrainsOverSeveralDataDirectoriesAndReportsBadInput) {
  TempDir dir;
  const std::string config = WriteConfig(dir, 16);
  ASSERT_EQ(RunVeletas(dir, "init-model --config " + config + " --out " + dir.File("g0.ckpt")).code,
            0);
  fs::create_directories(dir.File("a"));
  fs::create_directories(dir.File("b"));
  const int64_t na = testing::WriteGames(dir.File("a/s_0.vzs"), 1, 1);
  const int64_t nb = testing::WriteGames(dir.File("b/s_0.vzs"), 1, 2);
  const std::string base = "train --config " + config + " --model " + dir.File("g0.ckpt");

  Output ok = RunVeletas(dir, base + " --data " + dir.File("a") + " --data " + dir.File("b") +
                                  " --out " + dir.File("g1.ckpt") + " --steps 3");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("3 steps"), std::string::npos) << ok.out;
  auto meta = model::ReadCheckpointMeta(dir.File("g1.ckpt"));
  ASSERT_TRUE(meta.ok()) << meta.error();
  EXPECT_EQ(meta.value().generation, 1);
  EXPECT_EQ(meta.value().training_steps, 3);
  EXPECT_NE(ok.out.find(std::to_string(na + nb) + " new samples"), std::string::npos) << ok.out;
  EXPECT_TRUE(fs::exists(dir.File("metrics.jsonl")));
  EXPECT_TRUE(fs::exists(dir.File("training_loss.png")));
  // Not a terminal: progress comes as log lines, one per metrics line.
  EXPECT_NE(ok.err.find("step 2/3"), std::string::npos) << ok.err;

  Output missing =
      RunVeletas(dir, base + " --data " + dir.File("nowhere") + " --out " + dir.File("x.ckpt"));
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("nowhere"), std::string::npos) << missing.err;

  fs::create_directories(dir.File("empty"));
  Output empty =
      RunVeletas(dir, base + " --data " + dir.File("empty") + " --out " + dir.File("x.ckpt"));
  EXPECT_EQ(empty.code, 2);
  EXPECT_NE(empty.err.find("no usable sample data"), std::string::npos) << empty.err;

  std::ofstream(dir.File("junk.ckpt")) << "junk";
  Output bad = RunVeletas(dir, "train --config " + config + " --model " + dir.File("junk.ckpt") +
                                   " --data " + dir.File("a") + " --out " + dir.File("x.ckpt"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("junk.ckpt"), std::string::npos) << bad.err;

  Output mismatch =
      RunVeletas(dir, "train --config " + WriteConfig(dir, 24) + " --model " + dir.File("g0.ckpt") +
                          " --data " + dir.File("a") + " --out " + dir.File("x.ckpt"));
  EXPECT_EQ(mismatch.code, 2);
  EXPECT_NE(mismatch.err.find("architecture mismatch"), std::string::npos) << mismatch.err;

  Output usage = RunVeletas(dir, "train --config " + config + " --model " + dir.File("g0.ckpt"));
  EXPECT_EQ(usage.code, 2);
  EXPECT_NE(usage.err.find("--data"), std::string::npos) << usage.err;
  EXPECT_FALSE(fs::exists(dir.File("x.ckpt")));
}

}  // namespace
}  // namespace veletas::training
