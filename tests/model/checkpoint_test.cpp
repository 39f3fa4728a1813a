// Checkpoints: round trip, optimiser state, and rejection of corrupt, truncated and
// mismatched files with the file named in the error.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "model/torch/checkpoint.h"
#include "model/torch/losses.h"
#include "model/torch/network.h"
#include "tests/model/test_util.h"
#include "tests/support/files.h"

namespace veletas::model {
namespace {

using rules::Position;
using rules::RuleSet;

const torch::Device kCpu(torch::kCPU);

using test_support::ReadAll;

void WriteAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

struct Batch {
  torch::Tensor x;
  Targets t;
};

Batch MakeBatch(int size, uint64_t seed) {
  const auto positions = SamplePositions(RuleSet::kStandard, size, 16, seed);
  EncodedBatch b;
  EncodeBatch(positions, size, b);
  Batch batch;
  batch.x = PlanesTensor(b, kCpu);
  batch.t.legal = LegalTensor(b, kCpu);
  const torch::Tensor f = batch.t.legal.to(torch::kFloat);
  batch.t.policy = f / f.sum(1, true);
  batch.t.value = torch::linspace(-1, 1, 16);
  batch.t.aux = torch::randint(-1, 3, {16, size, size}, torch::kLong);
  return batch;
}

void Step(VeletasNet& net, torch::optim::Optimizer& opt, const Batch& b) {
  net->train();
  const Losses l = ComputeLosses(net->forward(b.x), b.t, LossWeights{});
  opt.zero_grad();
  l.total.backward();
  opt.step();
}

bool SameTensors(const VeletasNet& a, const VeletasNet& b) {
  const auto ta = NamedTensors(a);
  const auto tb = NamedTensors(b);
  if (ta.size() != tb.size()) return false;
  for (size_t i = 0; i < ta.size(); ++i) {
    if (ta[i].first != tb[i].first || !torch::equal(ta[i].second, tb[i].second)) return false;
  }
  return true;
}

CheckpointMeta Meta7() {
  CheckpointMeta meta;
  meta.rules = RuleSet::kStandard;
  meta.size = 7;
  return meta;
}

ModelSpec Spec7() { return ModelSpec{RuleSet::kStandard, 7, testing::TinyArch()}; }

TEST(Checkpoint, RoundTripGivesIdenticalOutputsAndMetadata) {
  testing::TempDir dir;
  torch::manual_seed(1);
  VeletasNet net = MakeNet(testing::TinyArch());
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const Batch b = MakeBatch(7, 3);
  for (int i = 0; i < 3; ++i) Step(net, opt, b);  // non-trivial weights and BN statistics
  net->eval();
  CheckpointMeta meta = Meta7();
  meta.generation = 12;
  meta.training_steps = 3456;
  meta.extra["samples_consumed"] = "98765";
  const std::string path = dir.File("net.ckpt");
  ASSERT_TRUE(SaveCheckpoint(path, net, nullptr, meta).ok());

  auto loaded = LoadCheckpoint(path, nullptr);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const CheckpointMeta& m = loaded.value().meta;
  EXPECT_EQ(m.generation, 12);
  EXPECT_EQ(m.training_steps, 3456);
  EXPECT_EQ(m.extra.at("samples_consumed"), "98765");
  EXPECT_TRUE(m.arch.SameArchitecture(testing::TinyArch()));
  EXPECT_EQ(m.optimizer, "");
  EXPECT_TRUE(SameTensors(net, loaded.value().net));
  torch::NoGradGuard no_grad;
  const NetOutput a = net->forward(b.x);
  const NetOutput c = loaded.value().net->forward(b.x);
  EXPECT_TRUE(torch::equal(a.policy, c.policy));
  EXPECT_TRUE(torch::equal(a.value, c.value));
  EXPECT_TRUE(torch::equal(a.aux, c.aux));
  // Written through a temporary name: nothing else is left in the directory.
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
}

// Saving after k steps and continuing from the loaded copy gives the same parameters as
// continuing the original: the optimiser state (momentum / Adam moments and step) is restored.
template <class Opt, class Options>
void CheckOptimizerRestored(const Options& options) {
  testing::TempDir dir;
  torch::manual_seed(2);
  VeletasNet net = MakeNet(testing::TinyArch());
  Opt opt(net->parameters(), options);
  const Batch b1 = MakeBatch(7, 4), b2 = MakeBatch(7, 5);
  for (int i = 0; i < 3; ++i) Step(net, opt, b1);
  const std::string path = dir.File("train.ckpt");
  ASSERT_TRUE(SaveCheckpoint(path, net, &opt, Meta7()).ok());

  torch::manual_seed(99);
  VeletasNet copy = MakeNet(testing::TinyArch());
  Opt copy_opt(copy->parameters(), options);
  auto meta = LoadCheckpointInto(path, Spec7(), copy, &copy_opt);
  ASSERT_TRUE(meta.ok()) << meta.error();
  EXPECT_TRUE(SameTensors(net, copy));

  // A fresh optimiser without the state diverges; the restored one does not.
  torch::manual_seed(99);
  VeletasNet stateless = MakeNet(testing::TinyArch());
  ASSERT_TRUE(LoadCheckpointInto(path, Spec7(), stateless, nullptr).ok());
  Opt stateless_opt(stateless->parameters(), options);

  for (int i = 0; i < 2; ++i) {
    Step(net, opt, b2);
    Step(copy, copy_opt, b2);
    Step(stateless, stateless_opt, b2);
  }
  EXPECT_TRUE(SameTensors(net, copy));
  EXPECT_FALSE(SameTensors(net, stateless));
}

TEST(Checkpoint, RestoresSgdMomentumState) {
  CheckOptimizerRestored<torch::optim::SGD>(
      torch::optim::SGDOptions(0.05).momentum(0.9).weight_decay(1e-4));
}

TEST(Checkpoint, RestoresAdamWState) {
  CheckOptimizerRestored<torch::optim::AdamW>(torch::optim::AdamWOptions(1e-3));
}

TEST(Checkpoint, RejectsOptimizerOfAnotherKind) {
  testing::TempDir dir;
  VeletasNet net = MakeNet(testing::TinyArch());
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  Step(net, sgd, MakeBatch(7, 6));
  const std::string path = dir.File("sgd.ckpt");
  ASSERT_TRUE(SaveCheckpoint(path, net, &sgd, Meta7()).ok());
  EXPECT_EQ(ReadCheckpointMeta(path).value().optimizer, "sgd");
  torch::optim::AdamW adamw(net->parameters(), torch::optim::AdamWOptions(1e-3));
  auto r = LoadCheckpointInto(path, Spec7(), net, &adamw);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(path), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("sgd"), std::string::npos) << r.error();
}

class CorruptCheckpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(3);
    VeletasNet net = MakeNet(testing::TinyArch());
    torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(1e-3));
    Step(net, opt, MakeBatch(7, 7));
    good_ = dir_.File("good.ckpt");
    ASSERT_TRUE(SaveCheckpoint(good_, net, &opt, Meta7()).ok());
    bytes_ = ReadAll(good_);
    bad_ = dir_.File("bad.ckpt");
  }
  // Every way of opening the bad file fails with an error naming it.
  void ExpectRejected(const std::string& what) {
    auto meta = ReadCheckpointMeta(bad_);
    ASSERT_FALSE(meta.ok()) << what;
    EXPECT_NE(meta.error().find(bad_), std::string::npos) << what << ": " << meta.error();
    auto loaded = LoadCheckpoint(bad_, nullptr);
    ASSERT_FALSE(loaded.ok()) << what;
    EXPECT_NE(loaded.error().find(bad_), std::string::npos) << what << ": " << loaded.error();
    auto evaluator = NetworkEvaluator::Load(bad_, Spec7(), testing::TinyArch());
    ASSERT_FALSE(evaluator.ok()) << what;
  }
  testing::TempDir dir_;
  std::string good_, bad_, bytes_;
};

TEST_F(CorruptCheckpoint, FlippedBytesAnywhereAreDetected) {
  ASSERT_TRUE(ReadCheckpointMeta(good_).ok());
  // Every byte of the header and the metadata, then a stride through tensors and optimiser.
  for (size_t at = 0; at < bytes_.size(); at += (at < 400 ? 1 : 1009)) {
    std::string bad = bytes_;
    bad[at] = static_cast<char>(bad[at] ^ 0x5A);
    WriteAll(bad_, bad);
    auto r = ReadCheckpointMeta(bad_);
    ASSERT_FALSE(r.ok()) << "flipped byte " << at << " of " << bytes_.size();
    ASSERT_NE(r.error().find(bad_), std::string::npos) << r.error();
  }
  std::string bad = bytes_;
  bad[bytes_.size() / 2] = static_cast<char>(bad[bytes_.size() / 2] ^ 1);
  WriteAll(bad_, bad);
  ExpectRejected("flipped middle byte");
  EXPECT_NE(ReadCheckpointMeta(bad_).error().find("checksum"), std::string::npos);
}

TEST_F(CorruptCheckpoint, TruncatedFilesAreDetected) {
  for (size_t len : {size_t{0}, size_t{7}, size_t{31}, size_t{32}, size_t{100}, bytes_.size() / 2,
                     bytes_.size() - 1}) {
    WriteAll(bad_, bytes_.substr(0, len));
    ExpectRejected("truncated to " + std::to_string(len));
    if (len >= 32) {
      EXPECT_NE(ReadCheckpointMeta(bad_).error().find("truncated"), std::string::npos)
          << ReadCheckpointMeta(bad_).error();
    }
  }
  WriteAll(bad_, bytes_ + "x");
  ExpectRejected("trailing byte");
}

TEST_F(CorruptCheckpoint, OtherFilesAndMissingFiles) {
  WriteAll(bad_, std::string(1000, 'a'));
  ExpectRejected("not a checkpoint");
  EXPECT_NE(ReadCheckpointMeta(bad_).error().find("magic"), std::string::npos);
  bad_ = dir_.File("missing.ckpt");
  ExpectRejected("missing");
}

TEST(Checkpoint, MismatchedMetadataIsRejectedNamingTheFile) {
  testing::TempDir dir;
  VeletasNet net = MakeNet(testing::TinyArch());
  const std::string path = dir.File("m.ckpt");
  ASSERT_TRUE(SaveCheckpoint(path, net, nullptr, Meta7()).ok());
  struct Case {
    ModelSpec spec;
    const char* expect;
  };
  NetConfig other = testing::TinyArch();
  other.channels = 24;
  NetConfig deeper = testing::TinyArch();
  deeper.blocks = 3;
  const Case cases[] = {
      {{RuleSet::kClassic, 7, testing::TinyArch()}, "rules mismatch"},
      {{RuleSet::kStandard, 9, testing::TinyArch()}, "board size mismatch"},
      {{RuleSet::kStandard, 7, other}, "architecture mismatch"},
      {{RuleSet::kStandard, 7, deeper}, "architecture mismatch"},
  };
  for (const Case& c : cases) {
    VeletasNet target = MakeNet(c.spec.arch);
    auto r = LoadCheckpointInto(path, c.spec, target, nullptr);
    ASSERT_FALSE(r.ok()) << c.expect;
    EXPECT_NE(r.error().find(path), std::string::npos) << r.error();
    EXPECT_NE(r.error().find(c.expect), std::string::npos) << r.error();
    auto loaded = LoadCheckpoint(path, &c.spec);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().find(c.expect), std::string::npos) << loaded.error();
    auto evaluator = NetworkEvaluator::Load(path, c.spec, testing::TinyArch());
    ASSERT_FALSE(evaluator.ok());
    EXPECT_NE(evaluator.error().find(path), std::string::npos) << evaluator.error();
  }
  EXPECT_TRUE(LoadCheckpoint(path, nullptr).ok());

  // A checkpoint of another feature version is rejected however it is loaded, also when the
  // network is built from the file's own metadata (LoadCheckpoint without a spec, as
  // `veletas export` does).
  auto sections = ReadCheckpointFile(path);
  ASSERT_TRUE(sections.ok()) << sections.error();
  auto meta = MetaFromJson(sections.value().meta_json, path);
  ASSERT_TRUE(meta.ok()) << meta.error();
  meta.value().feature_version += 1;
  sections.value().meta_json = MetaToJson(meta.value());
  const std::string stale = dir.File("stale.ckpt");
  ASSERT_TRUE(WriteCheckpointFile(stale, sections.value()).ok());
  const ModelSpec spec{RuleSet::kStandard, 7, testing::TinyArch()};
  for (const ModelSpec* s : {&spec, static_cast<const ModelSpec*>(nullptr)}) {
    auto loaded = LoadCheckpoint(stale, s);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().find(stale + ": input features mismatch"), std::string::npos)
        << loaded.error();
  }
  VeletasNet target = MakeNet(spec.arch);
  auto into = LoadCheckpointInto(stale, spec, target, nullptr);
  ASSERT_FALSE(into.ok());
  EXPECT_NE(into.error().find("input features mismatch"), std::string::npos) << into.error();
}

// A checkpoint written by an earlier build (format version 1, a hand-written 64-bit
// checksum) is refused naming the file and both versions, never misread; new checkpoints are
// version 2 (XXH3).
TEST(Checkpoint, AVersion1CheckpointIsRefusedNamingTheVersions) {
  const std::string v1 =
      std::string(VELETAS_MODEL_TEST_DIR) + "/../fixtures/formats_v1/tiny_gen0.ckpt";
  const std::string bytes = ReadAll(v1);
  ASSERT_GT(bytes.size(), 32u);
  EXPECT_EQ(bytes[8], 1);
  auto loaded = LoadCheckpoint(v1, nullptr);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.exit_code(), 2);
  EXPECT_NE(loaded.error().find(v1 + ": checkpoint format version 1 (written by an earlier build)"),
            std::string::npos)
      << loaded.error();
  EXPECT_NE(loaded.error().find("this build reads version 2 only"), std::string::npos)
      << loaded.error();
  EXPECT_EQ(kCheckpointFormatVersion, 2u);
}

}  // namespace
}  // namespace veletas::model
