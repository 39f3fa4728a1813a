// `veletas export --onnx`: TorchScript, the JSON description and ONNX in one step; and
// scripts/export_onnx.py under a Python without PyTorch says what is missing.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdlib>

#include <filesystem>
#include <string>

#include "tests/cli/run_veletas.h"
#include "tests/support/temp_dir.h"

namespace veletas::cli_test {
namespace {

bool SystemPythonHasOnnx() {
  return std::system("/usr/bin/python3 -c 'import onnx, torch' >/dev/null 2>&1") == 0;
}

TEST(Export, OnnxInOneStep) {
  if (!SystemPythonHasOnnx()) GTEST_SKIP() << "/usr/bin/python3 has no torch or onnx";
  test_support::TempDir dir;
  const std::string ckpt = dir.File("g0.ckpt"), out = dir.File("export");
  const Output init =
      RunVeletas({"init-model", "--config", std::string(VELETAS_SOURCE_DIR) + "/configs/tiny.yaml",
                  "--out", ckpt, "--seed", "1"});
  ASSERT_EQ(init.code, 0) << init.err;
  const Output exported = RunVeletas({"export", "--model", ckpt, "--out", out, "--onnx"});
  ASSERT_EQ(exported.code, 0) << exported.out << exported.err;
  EXPECT_NE(exported.out.find("onnx.checker: ok"), std::string::npos) << exported.out;
  for (const char* file : {"model.pt", "model.json", "model.onnx"}) {
    EXPECT_TRUE(std::filesystem::exists(out + "/" + file)) << file;
  }
  const Output help = RunVeletas({"export", "--help"});
  EXPECT_NE(help.out.find("--onnx"), std::string::npos) << help.out;
}

// The script is executable; run by a Python that cannot import torch (here: without its
// site packages, so no re-execution helps), it names the missing packages and exits 1.
TEST(Export, TheScriptSaysWhatIsMissing) {
  const std::string script = std::string(VELETAS_SOURCE_DIR) + "/scripts/export_onnx.py";
  namespace fs = std::filesystem;
  EXPECT_NE(fs::status(script).permissions() & fs::perms::owner_exec, fs::perms::none);
  test_support::TempDir dir;
  const std::string log = dir.File("log");
  const int status = std::system(("VELETAS_EXPORT_ONNX_REEXEC=1 /usr/bin/python3 -S " + script +
                                  " " + dir.Str() + " > " + log + " 2>&1")
                                     .c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const std::string text = ReadFile(log);
  EXPECT_NE(text.find("has no torch (Debian: python3-torch)"), std::string::npos) << text;
  EXPECT_NE(text.find("apt-get install python3-torch"), std::string::npos) << text;
  EXPECT_EQ(text.find("Traceback"), std::string::npos) << text;
}

}  // namespace
}  // namespace veletas::cli_test
