// The ONNX path end to end: `veletas export`'s files converted by scripts/export_onnx.py
// (validated with onnx.checker), run by onnxruntime-node (installed with npm into the build
// folder on first use) on positions encoded by the C++ side, and compared with LibTorch:
// the TorchScript module's raw outputs and the NetworkEvaluator's legal-action softmax and
// value.
//
// Needs /usr/bin/python3 with torch and onnx, node and npm (with access to the npm
// registry the first time). Missing any of them fails the test unless
// VELETAS_SKIP_ONNX_RUNTIME=1 is set, which skips it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "model/torch/model_files.h"
#include "tests/play/test_util.h"

#if !defined(VELETAS_SOURCE_DIR) || !defined(VELETAS_ONNX_NODE_DIR) || \
    !defined(VELETAS_ONNXRUNTIME_NODE_VERSION)
#error "VELETAS_SOURCE_DIR, VELETAS_ONNX_NODE_DIR and VELETAS_ONNXRUNTIME_NODE_VERSION are needed"
#endif

namespace veletas::play {
namespace {

using testing::TempDir;

// Runs a shell command with its output in `log`; the exit code.
int Shell(const std::string& command, const std::string& log) {
  const int status = std::system((command + " > " + log + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool SkipRequested() {
  const char* v = std::getenv("VELETAS_SKIP_ONNX_RUNTIME");
  return v != nullptr && std::string(v) == "1";
}

// Makes onnxruntime-node available under VELETAS_ONNX_NODE_DIR; "" or what went wrong.
std::string EnsureOnnxRuntimeNode(const std::string& log) {
  const std::string dir = VELETAS_ONNX_NODE_DIR;
  const std::string package = dir + "/node_modules/onnxruntime-node/package.json";
  if (std::filesystem::exists(package)) {
    std::ifstream in(package);
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_discarded() && j.value("version", "") == VELETAS_ONNXRUNTIME_NODE_VERSION) return "";
  }
  if (Shell("npm --version", log) != 0) return "npm is not available";
  std::filesystem::create_directories(dir);
  // The package bundles the CPU runtime; its install script would download CUDA binaries
  // from outside the npm registry, which is skipped.
  const std::string cmd =
      "ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save --no-audit "
      "--no-fund --prefix " +
      dir + " onnxruntime-node@" + VELETAS_ONNXRUNTIME_NODE_VERSION +
      " --onnxruntime-node-install=skip";
  const auto start = std::chrono::steady_clock::now();
  const int rc = Shell(cmd, log);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "npm install onnxruntime-node@" << VELETAS_ONNXRUNTIME_NODE_VERSION << ": " << secs
            << " s\n";
  if (rc != 0 || !std::filesystem::exists(package)) {
    return "npm install failed (exit " + std::to_string(rc) + "):\n" + testing::ReadAll(log);
  }
  return "";
}

nlohmann::json Batch(const std::vector<rules::Position>& positions, int canvas,
                     search::Evaluator* evaluator) {
  model::EncodedBatch b;
  model::EncodeBatch(positions, canvas, b);
  nlohmann::json j;
  j["shape"] = {b.batch, model::kNumPlanes, b.canvas, b.canvas};
  j["input"] = b.planes;
  j["legal"] = b.legal;
  if (evaluator != nullptr) {
    std::vector<search::EvalOutput> out(positions.size());
    evaluator->Evaluate(positions, out);
    const int actions = model::CanvasActions(canvas);
    std::vector<float> policy(positions.size() * actions, 0.0f);
    std::vector<float> value;
    for (size_t i = 0; i < positions.size(); ++i) {
      const int n = positions[i].Size();
      for (int a = 0; a <= n * n; ++a) {
        policy[i * actions + model::CanvasAction(n, canvas, a)] = out[i].policy[a];
      }
      value.push_back(out[i].value);
    }
    j["evaluator"] = {{"policy", policy}, {"value", value}};
  }
  return j;
}

TEST(Onnx, ExportedModelMatchesLibTorchInOnnxRuntime) {
  if (SkipRequested()) GTEST_SKIP() << "VELETAS_SKIP_ONNX_RUNTIME=1";
  TempDir dir;
  const std::string src = VELETAS_SOURCE_DIR;
  // A fresh small network, exported as `veletas export` does.
  model::ModelSpec spec;
  spec.rules = rules::RuleSet::kStandard;
  spec.size = 7;
  spec.arch.blocks = 2;
  spec.arch.channels = 16;
  spec.arch.head_channels = 8;
  spec.arch.value_hidden = 16;
  const std::string ckpt = dir.File("g0.ckpt"), out = dir.File("export");
  ASSERT_TRUE(model::CreateInitialCheckpoint(ckpt, spec, 3).ok());
  auto exported = model::ExportModel(ckpt, out);
  ASSERT_TRUE(exported.ok()) << exported.error();

  // Conversion and onnx.checker.
  const std::string py = dir.File("python.log");
  ASSERT_EQ(Shell("/usr/bin/python3 " + src + "/scripts/export_onnx.py " + out, py), 0)
      << testing::ReadAll(py);
  EXPECT_NE(testing::ReadAll(py).find("onnx.checker: ok"), std::string::npos)
      << testing::ReadAll(py);
  ASSERT_TRUE(std::filesystem::exists(out + "/model.onnx"));

  // Positions at every kind of sub-decision, encoded by the C++ side: on the model's canvas
  // (with the NetworkEvaluator's outputs) and padded into a 9x9 canvas.
  auto positions = model::SamplePositions(rules::RuleSet::kStandard, 7, 48, 1);
  model::NetConfig runtime;
  runtime.threads = 1;
  // The exported graph is LibTorch's.
  runtime.inference_precision = model::InferencePrecision::kTorch;
  auto evaluator = model::NetworkEvaluator::Load(ckpt, spec, runtime);
  ASSERT_TRUE(evaluator.ok()) << evaluator.error();
  nlohmann::json c;
  c["batches"] = {
      Batch(positions, 7, evaluator.value().get()),
      Batch(std::vector<rules::Position>(positions.begin(), positions.begin() + 12), 9, nullptr)};
  std::ofstream(dir.File("case.json")) << c.dump();
  ASSERT_EQ(Shell("/usr/bin/python3 " + src + "/scripts/export_onnx.py " + out + " --out " +
                      dir.File("again.onnx") + " --reference " + dir.File("case.json") + " " +
                      dir.File("ref.json"),
                  py),
            0)
      << testing::ReadAll(py);

  const std::string npm_log = dir.File("npm.log");
  if (std::string problem = EnsureOnnxRuntimeNode(npm_log); !problem.empty()) {
    FAIL() << "cannot install onnxruntime-node into " << VELETAS_ONNX_NODE_DIR << ": " << problem
           << "\n(set VELETAS_SKIP_ONNX_RUNTIME=1 to skip this test where npm's registry is "
              "out of reach)";
  }
  const std::string node_log = dir.File("node.log");
  const int rc =
      Shell(std::string("ONNXRUNTIME_NODE=") + VELETAS_ONNX_NODE_DIR +
                "/node_modules/onnxruntime-node node " + src + "/scripts/onnx_check.mjs " + out +
                "/model.onnx " + out + "/model.json " + dir.File("case.json") + " " +
                dir.File("ref.json") + " 1e-4",
            node_log);
  const std::string report = testing::ReadAll(node_log);
  EXPECT_EQ(rc, 0) << report;
  EXPECT_NE(report.find("ok: onnxruntime-node"), std::string::npos) << report;
  EXPECT_EQ(report.find("FAIL"), std::string::npos) << report;
  // Every comparison ran: raw outputs of both batches, softmax and value, one at a time.
  int lines = 0;
  for (size_t at = report.find("ok  "); at != std::string::npos; at = report.find("ok  ", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 3 + 2 + 1 + 3) << report;
  std::cout << report;
}

}  // namespace
}  // namespace veletas::play
