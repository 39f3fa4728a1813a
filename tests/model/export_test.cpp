// TorchScript export: the exported module (batch norm folded into the convolutions) computes
// what the live network computes within kTolerance, loads with plain LibTorch and with
// Python's torch, converts to an ONNX graph without BatchNormalization nodes, and its JSON
// documents the planes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/base/features.h"
#include "model/torch/checkpoint.h"
#include "model/torch/export.h"
#include "model/torch/model_files.h"
#include "model/torch/network.h"
#include "tests/model/test_util.h"

#ifndef VELETAS_MODEL_TEST_DIR
#error "VELETAS_MODEL_TEST_DIR must name tests/model"
#endif

namespace veletas::model {
namespace {

using rules::Position;
using rules::RuleSet;

// A network with non-trivial weights and batch-norm statistics.
VeletasNet NonTrivialNet(uint64_t seed) {
  torch::manual_seed(seed);
  VeletasNet net = MakeNet(testing::TinyArch());
  torch::NoGradGuard no_grad;
  for (auto& p : net->parameters()) p.add_(torch::randn_like(p) * 0.1);
  for (const auto& b : net->named_buffers()) {
    if (b.key().find("running_mean") != std::string::npos) b.value().normal_(0, 0.3);
    if (b.key().find("running_var") != std::string::npos) b.value().uniform_(0.5, 2.0);
  }
  net->eval();
  return net;
}

torch::Tensor Input(RuleSet rs, int size, int canvas, int count, uint64_t seed) {
  const auto positions = SamplePositions(rs, size, count, seed);
  EncodedBatch b;
  EncodeBatch(positions, canvas, b);
  return PlanesTensor(b, torch::kCPU);
}

// How far the exported module's outputs may be from the live network's: folding batch norm
// into the convolution weights changes the float rounding (tests/model/check_export.py
// allows the same).
constexpr double kTolerance = 1e-4;

double MaxDiff(const torch::Tensor& a, const torch::Tensor& b) {
  EXPECT_EQ(a.sizes(), b.sizes());
  return (a - b).abs().max().item<double>();
}

void ExpectSameOutputs(VeletasNet& net, torch::jit::Module& module, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  const NetOutput live = net->forward(x);
  const auto result = module.forward({x}).toTuple();
  ASSERT_EQ(result->elements().size(), 3u);
  EXPECT_LT(MaxDiff(live.policy, result->elements()[0].toTensor()), kTolerance);
  EXPECT_LT(MaxDiff(live.value, result->elements()[1].toTensor()), kTolerance);
  EXPECT_LT(MaxDiff(live.aux, result->elements()[2].toTensor()), kTolerance);
}

TEST(Export, ScriptModuleMatchesTheLiveNetwork) {
  VeletasNet net = NonTrivialNet(1);
  torch::jit::Module module = BuildScriptModule(net);
  ExpectSameOutputs(net, module, Input(RuleSet::kStandard, 10, 10, 12, 1));
  ExpectSameOutputs(net, module, Input(RuleSet::kClassic, 7, 7, 12, 2));
  ExpectSameOutputs(net, module, Input(RuleSet::kStandard, 7, 10, 12, 3));  // padded
}

class ExportFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    net_ = NonTrivialNet(2);
    CheckpointMeta meta;
    meta.rules = RuleSet::kStandard;
    meta.size = 9;
    meta.generation = 4;
    ckpt_ = dir_.File("g4.ckpt");
    ASSERT_TRUE(SaveCheckpoint(ckpt_, net_, nullptr, meta).ok());
    out_ = dir_.File("export");
    auto s = ExportModel(ckpt_, out_);
    ASSERT_TRUE(s.ok()) << s.error();
  }
  testing::TempDir dir_;
  VeletasNet net_{nullptr};
  std::string ckpt_, out_;
};

TEST_F(ExportFiles, LoadsWithLibTorchAndMatches) {
  torch::jit::Module module = torch::jit::load(out_ + "/model.pt");
  ExpectSameOutputs(net_, module, Input(RuleSet::kStandard, 9, 9, 16, 4));
}

TEST_F(ExportFiles, DescriptionListsThePlanesInOrder) {
  std::ifstream in(out_ + "/model.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("rules"), "standard");
  EXPECT_EQ(j.at("size"), 9);
  EXPECT_EQ(j.at("generation"), 4);
  EXPECT_EQ(j.at("architecture").at("blocks"), testing::TinyArch().blocks);
  const auto& planes = j.at("input").at("planes");
  ASSERT_EQ(static_cast<int>(planes.size()), kNumPlanes);
  for (int p = 0; p < kNumPlanes; ++p) {
    EXPECT_EQ(planes[p].at("index"), p);
    EXPECT_EQ(planes[p].at("name"), PlaneName(p));
  }
  EXPECT_EQ(j.at("input").at("shape")[1], kNumPlanes);
  EXPECT_EQ(j.at("outputs").size(), 3u);
}

TEST_F(ExportFiles, LoadsWithPythonTorchAndMatches) {
  if (std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no torch";
  }
  const torch::Tensor x = Input(RuleSet::kStandard, 9, 9, 8, 5);
  torch::NoGradGuard no_grad;
  const NetOutput live = net_->forward(x);
  auto flat = [](const torch::Tensor& t) {
    const torch::Tensor c = t.contiguous().to(torch::kFloat);
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  };
  nlohmann::json c;
  c["shape"] = x.sizes().vec();
  c["input"] = flat(x);
  c["policy"] = flat(live.policy);
  c["value"] = flat(live.value);
  c["aux"] = flat(live.aux);
  const std::string case_path = dir_.File("case.json");
  std::ofstream(case_path) << c.dump();
  // The ONNX conversion (scripts/export_onnx.py's) where Python has onnx.
  const bool onnx = std::system("/usr/bin/python3 -c 'import onnx' >/dev/null 2>&1") == 0;
  const std::string cmd = std::string("/usr/bin/python3 ") + VELETAS_MODEL_TEST_DIR +
                          "/check_export.py " + out_ + " " + case_path + (onnx ? " --onnx" : "") +
                          " > " + dir_.File("py.log") + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream log(dir_.File("py.log"));
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("ok: 8 positions"), std::string::npos) << text;
  if (!onnx) {
    std::cout << "/usr/bin/python3 has no onnx: the ONNX graph is not checked\n";
    return;
  }
  // Printed only when the graph has no BatchNormalization node (export_onnx.check).
  EXPECT_NE(text.find("onnx: no BatchNormalization node; "), std::string::npos) << text;
  EXPECT_NE(text.find("Conv "), std::string::npos) << text;
  std::cout << text;
}

TEST(Export, CorruptCheckpointIsReportedNotExported) {
  testing::TempDir dir;
  const std::string path = dir.File("junk.ckpt");
  std::ofstream(path) << "not a checkpoint at all, long enough for a header........";
  auto s = ExportModel(path, dir.File("out"));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find(path), std::string::npos) << s.error();
  EXPECT_FALSE(std::filesystem::exists(dir.File("out") + "/model.pt"));
}

}  // namespace
}  // namespace veletas::model
