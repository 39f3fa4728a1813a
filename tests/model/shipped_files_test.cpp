// What shipped and exported networks hold (issue 47): only what loading and playing need plus
// provenance, no training bookkeeping and no absolute path of the machine that trained them.
// model::ShippedMeta / ReadShippedCheckpoint, `veletas export`, and every folder of networks/.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/base/checkpoint_file.h"
#include "model/base/features.h"
#include "model/base/shipped_networks.h"
#include "model/network_evaluator.h"
#include "model/torch/model_files.h"
#include "tests/model/test_util.h"
#include "tests/support/files.h"

#ifndef VELETAS_SOURCE_NETWORKS
#error "VELETAS_SOURCE_NETWORKS must name the source tree's networks/ folder"
#endif

namespace veletas::model {
namespace {

namespace fs = std::filesystem;
using rules::RuleSet;
using testing::TempDir;

// A path from the root in text: "/" then a name and another "/" ("/work/runs", "/home/x/"),
// at the start of the text or after a space, quote, bracket, '=', ',' or ':'.
const std::regex kTextPath(R"((^|[\s"'`(\[=,:])/[A-Za-z0-9_.~-]+/)");
// The same in binary data, where any byte may precede it: a root folder of a machine's files.
const std::regex kBinaryPath(R"(/(work|home|root|tmp|usr|opt|mnt|srv|var|Users)/)");

// The first absolute path in `bytes` (by `pattern`), or "".
std::string FirstPath(const std::string& bytes, const std::regex& pattern) {
  std::smatch m;
  if (!std::regex_search(bytes, m, pattern)) return "";
  const size_t at = static_cast<size_t>(m.position(0));
  return bytes.substr(at, std::min<size_t>(80, bytes.size() - at));
}

// A checkpoint of a fresh tiny network whose metadata carries a training run's bookkeeping,
// as train_loop.cpp writes it (sample files with absolute paths, the call's plan).
std::string CheckpointWithBookkeeping(const TempDir& dir) {
  const std::string plain = dir.File("plain.ckpt"), path = dir.File("trained.ckpt");
  EXPECT_TRUE(
      CreateInitialCheckpoint(plain, ModelSpec{RuleSet::kStandard, 7, testing::TinyArch()}, 5)
          .ok());
  auto sections = ReadCheckpointFile(plain);
  EXPECT_TRUE(sections.ok());
  auto meta = MetaFromJson(sections.value().meta_json, plain);
  EXPECT_TRUE(meta.ok());
  meta.value().generation = 12;
  meta.value().training_steps = 3400;
  meta.value().extra["training.data"] =
      R"({"batches_drawn":3,"files":[["/work/runs/q7a/samples/iter_0000/samples_0.vzs",536]]})";
  meta.value().extra["training.call"] = R"({"complete":true,"generation":12})";
  sections.value().meta_json = MetaToJson(meta.value());
  EXPECT_TRUE(WriteCheckpointFile(path, sections.value()).ok());
  return path;
}

// The value and policy of `checkpoint` on `positions`.
std::vector<search::EvalOutput> Evaluations(const std::string& checkpoint,
                                            const std::vector<rules::Position>& positions) {
  NetConfig runtime = testing::TinyArch();
  runtime.threads = 1;
  auto opened = NetworkEvaluator::Open(checkpoint, ModelRequirement{}, runtime);
  EXPECT_TRUE(opened.ok()) << opened.error();
  std::vector<search::EvalOutput> out(positions.size());
  if (opened.ok()) opened.value().evaluator->Evaluate(positions, out);
  return out;
}

void ExpectSameEvaluations(const std::vector<search::EvalOutput>& a,
                           const std::vector<search::EvalOutput>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].value, b[i].value) << i;
    EXPECT_EQ(a[i].policy, b[i].policy) << i;
  }
}

// The shipped form keeps the tensors byte for byte and the metadata that loading needs, drops
// the optimiser and the bookkeeping, and evaluates exactly as the original.
TEST(ShippedFiles, TheShippedFormKeepsTheNetworkAndDropsTheBookkeeping) {
  TempDir dir;
  const std::string full = CheckpointWithBookkeeping(dir);
  ASSERT_NE(FirstPath(test_support::ReadAll(full), kTextPath), "");  // the test's premise
  auto shipped = ReadShippedCheckpoint(full);
  ASSERT_TRUE(shipped.ok()) << shipped.error();
  auto decoded = DecodeCheckpointFile(shipped.value(), "shipped");
  ASSERT_TRUE(decoded.ok()) << decoded.error();
  EXPECT_EQ(decoded.value().tensors, ReadCheckpointFile(full).value().tensors);
  EXPECT_TRUE(decoded.value().optimizer.empty());
  auto meta = MetaFromJson(decoded.value().meta_json, "shipped");
  ASSERT_TRUE(meta.ok());
  EXPECT_TRUE(meta.value().extra.empty());
  EXPECT_EQ(meta.value().generation, 12);
  EXPECT_EQ(meta.value().training_steps, 3400);
  EXPECT_EQ(FirstPath(shipped.value(), kTextPath), "");
  EXPECT_EQ(FirstPath(shipped.value(), kBinaryPath), "");
  // Shipping is idempotent.
  ASSERT_TRUE(WriteShippedCheckpoint(full, dir.File("shipped.ckpt")).ok());
  EXPECT_EQ(ReadShippedCheckpoint(dir.File("shipped.ckpt")).value(), shipped.value());
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 8, 4);
  ExpectSameEvaluations(Evaluations(full, positions),
                        Evaluations(dir.File("shipped.ckpt"), positions));
}

// `veletas export --checkpoint` writes the shipped form; none of its files (TorchScript,
// description, checkpoint) holds a path, and the exported checkpoint evaluates as the original.
TEST(ShippedFiles, ExportWritesNoPathAndNoBookkeeping) {
  TempDir dir;
  const std::string full = CheckpointWithBookkeeping(dir);
  const auto o =
      test_support::RunCommand(std::string(VELETAS_BINARY) + " export --checkpoint --model " +
                                   full + " --out " + dir.File("out"),
                               dir);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(test_support::ReadAll(dir.File("out/model.ckpt")), ReadShippedCheckpoint(full).value());
  for (const char* file : {"model.ckpt", "model.json", "model.pt"}) {
    const std::string bytes = test_support::ReadAll(dir.File(std::string("out/") + file));
    ASSERT_FALSE(bytes.empty()) << file;
    EXPECT_EQ(FirstPath(bytes, kBinaryPath), "") << file;
    EXPECT_EQ(bytes.find("training.data"), std::string::npos) << file;
  }
  const std::string json = test_support::ReadAll(dir.File("out/model.json"));
  EXPECT_EQ(FirstPath(json, kTextPath), "");
  EXPECT_EQ(json.find("\"extra\""), std::string::npos);
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 8, 9);
  ExpectSameEvaluations(Evaluations(full, positions),
                        Evaluations(dir.File("out/model.ckpt"), positions));
}

// Every folder of networks/: its checkpoint is in the shipped form (so the test that plays a
// game with each shipped network plays the stripped network), and no file holds a path: the
// text files and the checkpoint's metadata by kTextPath, the binary files by kBinaryPath. Its
// TorchScript export holds none either.
TEST(ShippedFiles, NoShippedFileHoldsAnAbsolutePath) {
  std::error_code ec;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(VELETAS_SOURCE_NETWORKS, ec)) {
    if (!entry.is_directory() || entry.path().filename().string().front() == '.') continue;
    const std::string folder = entry.path().string();
    const std::string ckpt = folder + "/model.ckpt";
    auto shipped = ReadShippedCheckpoint(ckpt);
    ASSERT_TRUE(shipped.ok()) << shipped.error();
    EXPECT_EQ(test_support::ReadAll(ckpt), shipped.value())
        << ckpt << " is not in the shipped form (veletas export --checkpoint)";
    const auto sections = ReadCheckpointFile(ckpt);
    ASSERT_TRUE(sections.ok()) << sections.error();
    EXPECT_EQ(FirstPath(sections.value().meta_json, kTextPath), "") << ckpt;
    for (const char* file : {"model.json", "card.json", "config.yaml", "CARD.md"}) {
      EXPECT_EQ(FirstPath(test_support::ReadAll(folder + "/" + file), kTextPath), "")
          << folder << "/" << file;
    }
    for (const char* file : {"model.ckpt", "model.onnx"}) {
      EXPECT_EQ(FirstPath(test_support::ReadAll(folder + "/" + file), kBinaryPath), "")
          << folder << "/" << file;
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no network is shipped in " << VELETAS_SOURCE_NETWORKS;
  TempDir dir;
  const std::string seven = std::string(VELETAS_SOURCE_NETWORKS) + "/standard-7x7/model.ckpt";
  if (!fs::exists(seven)) return;
  const auto o = test_support::RunCommand(
      std::string(VELETAS_BINARY) + " export --model " + seven + " --out " + dir.File("out"), dir);
  ASSERT_EQ(o.code, 0) << o.err;
  for (const char* file : {"model.json", "model.pt"}) {
    EXPECT_EQ(FirstPath(test_support::ReadAll(dir.File(std::string("out/") + file)), kBinaryPath),
              "")
        << file;
  }
}

// The words of `line` split at spaces.
std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Every card's command can be copied as it is (issue 47: the 7x7 card had prose inside its
// code span): `veletas COMMAND --option value ...` with options the command knows (its --help),
// values that are no prose, a config file that exists in the source tree; CARD.md shows it
// as one code span with nothing else inside.
TEST(ShippedFiles, EveryCardsCommandIsACommandLine) {
  std::error_code ec;
  const fs::path source = fs::path(VELETAS_SOURCE_NETWORKS).parent_path();
  for (const auto& entry : fs::directory_iterator(VELETAS_SOURCE_NETWORKS, ec)) {
    if (!entry.is_directory() || entry.path().filename().string().front() == '.') continue;
    const std::string folder = entry.path().string();
    auto card = ParseNetworkCard(test_support::ReadAll(folder + "/card.json"), folder);
    ASSERT_TRUE(card.ok()) << card.error();
    const std::string& command = card.value().command;
    const std::vector<std::string> words = Words(command);
    ASSERT_GE(words.size(), 2u) << folder << ": " << command;
    EXPECT_EQ(words[0], "veletas") << folder << ": " << command;
    TempDir dir;
    const auto help =
        test_support::RunCommand(std::string(VELETAS_BINARY) + " " + words[1] + " --help", dir);
    ASSERT_EQ(help.code, 0) << folder << ": " << words[1] << " is not a command: " << help.err;
    for (size_t i = 2; i < words.size(); ++i) {
      const std::string& w = words[i];
      const bool prose = w.find_first_of("(),;") != std::string::npos;
      EXPECT_FALSE(prose) << folder << ": \"" << w << "\" in " << command;
      if (w.rfind("--", 0) == 0) {
        EXPECT_NE(help.out.find(w), std::string::npos)
            << folder << ": " << words[1] << " has no option " << w;
      }
      if (words[i - 1] == "--config") {
        EXPECT_TRUE(fs::exists(source / w)) << folder << ": no config " << w;
      }
    }
    EXPECT_NE(test_support::ReadAll(folder + "/CARD.md").find("Trained by: `" + command + "`"),
              std::string::npos)
        << folder << "/CARD.md does not show the command as one code span";
  }
}

}  // namespace
}  // namespace veletas::model
