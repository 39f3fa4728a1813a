// The model commands of the built `veletas` binary (VELETAS_BINARY): init-model, export and
// bench nn, checked against the model library called directly.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "model/base/features.h"
#include "model/torch/checkpoint.h"
#include "model/torch/export.h"
#include "tests/model/test_util.h"
#include "tests/support/files.h"

#ifndef VELETAS_BINARY
#error "VELETAS_BINARY must name the veletas executable"
#endif

namespace veletas::model {
namespace {

using Output = test_support::CommandOutput;
using test_support::ReadAll;

// Runs `veletas ARGS` (arguments without quotes or spaces) with output in `dir`.
Output RunVeletas(const testing::TempDir& dir, const std::string& args) {
  return test_support::RunCommand(std::string(VELETAS_BINARY) + " " + args, dir);
}

std::string WriteConfig(const testing::TempDir& dir) {
  const std::string path = dir.File("tiny.yaml");
  std::ofstream(path) << "game:\n  rules: classic\n  size: 9\nmodel:\n  blocks: 2\n"
                         "  channels: 16\n  head_channels: 8\n  value_hidden: 24\n";
  return path;
}

TEST(Cli, InitModelWritesGenerationZeroForTheConfig) {
  testing::TempDir dir;
  const std::string config = WriteConfig(dir);
  const Output o =
      RunVeletas(dir, "init-model --config " + config + " --out " + dir.File("a.ckpt"));
  ASSERT_EQ(o.code, 0) << o.err;
  auto meta = ReadCheckpointMeta(dir.File("a.ckpt"));
  ASSERT_TRUE(meta.ok()) << meta.error();
  EXPECT_EQ(meta.value().rules, rules::RuleSet::kClassic);
  EXPECT_EQ(meta.value().size, 9);
  EXPECT_EQ(meta.value().arch.blocks, 2);
  EXPECT_EQ(meta.value().arch.channels, 16);
  EXPECT_EQ(meta.value().arch.head_channels, 8);
  EXPECT_EQ(meta.value().arch.value_hidden, 24);
  EXPECT_EQ(meta.value().generation, 0);
  EXPECT_EQ(meta.value().training_steps, 0);
  // The initial weights depend on the seed only.
  ASSERT_EQ(RunVeletas(dir, "init-model --config " + config + " --out " + dir.File("b.ckpt")).code,
            0);
  ASSERT_EQ(
      RunVeletas(dir, "init-model --config " + config + " --seed 2 --out " + dir.File("c.ckpt"))
          .code,
      0);
  EXPECT_EQ(ReadAll(dir.File("a.ckpt")), ReadAll(dir.File("b.ckpt")));
  EXPECT_NE(ReadAll(dir.File("a.ckpt")), ReadAll(dir.File("c.ckpt")));
}

TEST(Cli, ExportMatchesTheCheckpoint) {
  testing::TempDir dir;
  ASSERT_EQ(
      RunVeletas(dir, "init-model --config " + WriteConfig(dir) + " --out " + dir.File("a.ckpt"))
          .code,
      0);
  const Output o =
      RunVeletas(dir, "export --model " + dir.File("a.ckpt") + " --out " + dir.File("x"));
  ASSERT_EQ(o.code, 0) << o.err;
  auto loaded = LoadCheckpoint(dir.File("a.ckpt"), nullptr);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  torch::jit::Module module = torch::jit::load(dir.File("x") + "/model.pt");
  EncodedBatch b;
  EncodeBatch(SamplePositions(rules::RuleSet::kClassic, 9, 6, 1), 9, b);
  const torch::Tensor x = PlanesTensor(b, torch::kCPU);
  torch::NoGradGuard no_grad;
  const NetOutput live = loaded.value().net->forward(x);
  const auto result = module.forward({x}).toTuple();
  EXPECT_LT((live.policy - result->elements()[0].toTensor()).abs().max().item<float>(), 1e-5);
  EXPECT_LT((live.value - result->elements()[1].toTensor()).abs().max().item<float>(), 1e-5);
  EXPECT_NE(ReadAll(dir.File("x") + "/model.json").find("\"classic\""), std::string::npos);
}

TEST(Cli, BadInputExitsWithTwoNamingTheProblem) {
  testing::TempDir dir;
  Output o = RunVeletas(dir, "init-model --out " + dir.File("a.ckpt"));
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--config"), std::string::npos) << o.err;
  const std::string bad_config = dir.File("bad.yaml");
  std::ofstream(bad_config) << "model:\n  blocks: 0\n";
  o = RunVeletas(dir, "init-model --config " + bad_config + " --out " + dir.File("a.ckpt"));
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("bad.yaml:2"), std::string::npos) << o.err;
  std::ofstream(dir.File("junk.ckpt")) << "VELZCKPT but nothing else";
  o = RunVeletas(dir, "export --model " + dir.File("junk.ckpt") + " --out " + dir.File("x"));
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find(dir.File("junk.ckpt")), std::string::npos) << o.err;
  o = RunVeletas(dir, "bench nn --blocks 0");
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--blocks"), std::string::npos) << o.err;
  o = RunVeletas(dir, "bench nn --frobnicate 3");
  EXPECT_EQ(o.code, 2);
}

// A batch larger than the benchmark's pool of 1,024 positions (GPU batch sizes) is measured,
// not read past the pool's end.
TEST(Cli, BenchNnMeasuresBatchesLargerThanItsPositionPool) {
  testing::TempDir dir;
  const Output o = RunVeletas(dir,
                              "bench nn --blocks 1 --channels 8 --size 7 --threads 1 --seconds "
                              "0.01 --precisions torch --max-batch 2048");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(std::regex_search(o.out, std::regex(R"(\n\s+2048\s+torch\s+[1-9]\d*\s)"))) << o.out;
}

TEST(Cli, BenchNnPrintsARowPerBatchSize) {
  testing::TempDir dir;
  const Output o =
      RunVeletas(dir,
                 "bench nn --blocks 1 --channels 8 --size 7 --threads 1 --seconds 0.01 "
                 "--max-batch 32");
  ASSERT_EQ(o.code, 0) << o.err;
  // Evaluation rows for 1, 2, 4, ..., 32 for each precision measured (torch and fp32 run
  // everywhere; fp32's ratio to itself is 1), and training rows for 32: LibTorch fp32 (its
  // ratio to itself 1) and each other path measured (rate > 0) or named with the reason.
  const std::regex eval(R"(^\s+(\d+)\s+(torch|fp32|bf16|int8)\s+(\d+)\s+[\d.]+\s+(\S+)\s.*$)");
  const std::regex train(
      R"(^\s+(\d+)\s+(torch fp32|torch bf16 autocast|onednn fp32|onednn bf16)\s+(\d+)\s+[\d.]+\s+([\d.]+)$)");
  const std::regex not_measured(R"(^\s+(\d+)\s+(torch|onednn) .*not measured: .+$)");
  std::istringstream lines(o.out);
  std::vector<int> torch_batches, fp32_batches, train_batches;
  int onednn_rows = 0;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, eval)) {
      EXPECT_GT(std::stod(m[3]), 0.0) << line;
      if (m[2] == "torch") torch_batches.push_back(std::stoi(m[1]));
      if (m[2] == "fp32") {
        fp32_batches.push_back(std::stoi(m[1]));
        EXPECT_EQ(m[4], "1.00") << line;
      }
    } else if (std::regex_match(line, m, train)) {
      EXPECT_GT(std::stod(m[3]), 0.0) << line;
      if (m[2] == "torch fp32") {
        train_batches.push_back(std::stoi(m[1]));
        EXPECT_EQ(m[4], "1.00") << line;
      }
      if (std::string(m[2]).rfind("onednn", 0) == 0) ++onednn_rows;
    } else if (std::regex_match(line, m, not_measured)) {
      if (m[2] == "onednn") ++onednn_rows;
    }
  }
  EXPECT_EQ(torch_batches, (std::vector<int>{1, 2, 4, 8, 16, 32})) << o.out;
  EXPECT_EQ(fp32_batches, (std::vector<int>{1, 2, 4, 8, 16, 32})) << o.out;
  EXPECT_EQ(train_batches, (std::vector<int>{32})) << o.out;
  // The oneDNN path, measured or with its reason (on the CPU: a CUDA device has none).
  if (!torch::cuda::is_available()) {
    EXPECT_GE(onednn_rows, 1) << o.out;
  }
  if (!torch::cuda::is_available()) {
    const Output cuda = RunVeletas(dir, "bench nn --device cuda --seconds 0.01 --max-batch 1");
    EXPECT_EQ(cuda.code, 1);
    EXPECT_NE(cuda.err.find("CUDA is not available"), std::string::npos) << cuda.err;
  }
}

}  // namespace
}  // namespace veletas::model
