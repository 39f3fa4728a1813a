// NetworkEvaluator: a proper distribution over the legal actions, equal to the network's
// masked softmax, its own copy of the weights, device selection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "model/torch/checkpoint.h"
#include "model/torch/model_files.h"
#include "model/torch/network.h"
#include "tests/model/test_util.h"
#include "tests/support/files.h"
#include "tests/support/swapped_file.h"

namespace veletas::model {
namespace {

using rules::Position;
using rules::RuleSet;

VeletasNet RandomNet(uint64_t seed) {
  torch::manual_seed(seed);
  VeletasNet net = MakeNet(testing::TinyArch());
  torch::NoGradGuard no_grad;
  // Perturbed weights and statistics make the policy clearly non-uniform.
  for (auto& p : net->parameters()) p.add_(torch::randn_like(p) * 0.2);
  for (const auto& b : net->named_buffers()) {
    if (b.key().find("running_var") != std::string::npos) b.value().uniform_(0.5, 2.0);
  }
  net->eval();
  return net;
}

std::unique_ptr<NetworkEvaluator> MakeEvaluatorWith(const VeletasNet& net,
                                                    const NetConfig& runtime) {
  auto e = NetworkEvaluator::FromNet(net, runtime);
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error());
  return std::move(e.value());
}

std::unique_ptr<NetworkEvaluator> MakeEvaluator(const VeletasNet& net) {
  return MakeEvaluatorWith(net, testing::TinyArch());
}

std::vector<Position> Mixed() {
  std::vector<Position> all;
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    for (int size : {7, 9, 10}) {
      const auto some = SamplePositions(rs, size, 40, 3 * size + static_cast<int>(rs));
      all.insert(all.end(), some.begin(), some.end());
    }
  }
  return all;
}

TEST(NetworkEvaluator, PolicyIsADistributionOverLegalActions) {
  VeletasNet net = RandomNet(1);
  auto evaluator = MakeEvaluator(net);
  const auto positions = Mixed();
  std::vector<search::EvalOutput> out(positions.size());
  evaluator->Evaluate(positions, out);
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    double sum = 0.0;
    for (int a = 0; a < rules::kMaxActions; ++a) {
      const float prob = out[i].policy[a];
      if (a <= p.Size() * p.Size() && p.IsLegal(a)) {
        EXPECT_GT(prob, 0.0f);
        sum += prob;
      } else {
        ASSERT_EQ(prob, 0.0f) << "illegal action " << a << " of position " << i;
      }
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_LE(std::abs(out[i].value), 1.0f);
  }
}

TEST(NetworkEvaluator, EqualsTheMaskedSoftmaxOfTheNetwork) {
  VeletasNet net = RandomNet(2);
  auto evaluator = MakeEvaluator(net);
  const auto positions = SamplePositions(RuleSet::kStandard, 9, 30, 12);
  std::vector<search::EvalOutput> out(positions.size());
  evaluator->Evaluate(positions, out);
  EncodedBatch b;
  EncodeBatch(positions, 9, b);
  torch::NoGradGuard no_grad;
  const NetOutput o = net->forward(PlanesTensor(b, torch::kCPU));
  const torch::Tensor legal = LegalTensor(b, torch::kCPU);
  const torch::Tensor probs = torch::softmax(o.policy.masked_fill(legal.logical_not(), -1e30), 1);
  double max_prob = 0.0;
  for (size_t i = 0; i < positions.size(); ++i) {
    for (int a = 0; a < 82; ++a) {
      EXPECT_NEAR(out[i].policy[a], probs[i][a].item<float>(), 1e-5);
      max_prob = std::max<double>(max_prob, out[i].policy[a]);
    }
    EXPECT_NEAR(out[i].value, o.value[i].item<float>(), 1e-6);
  }
  EXPECT_GT(max_prob, 0.2);  // not a uniform policy
}

TEST(NetworkEvaluator, MixedSizeBatchEqualsSeparateBatches) {
  VeletasNet net = RandomNet(3);
  auto evaluator = MakeEvaluator(net);
  const auto positions = Mixed();
  std::vector<search::EvalOutput> together(positions.size());
  evaluator->Evaluate(positions, together);
  for (size_t i = 0; i < positions.size(); i += 7) {
    search::EvalOutput alone;
    evaluator->Evaluate(std::span(&positions[i], 1), std::span(&alone, 1));
    for (int a = 0; a < rules::kMaxActions; ++a) {
      ASSERT_NEAR(alone.policy[a], together[i].policy[a], 1e-5) << i;
    }
    EXPECT_NEAR(alone.value, together[i].value, 1e-5);
  }
}

TEST(NetworkEvaluator, HoldsItsOwnCopyUntilUpdated) {
  VeletasNet net = RandomNet(4);
  auto evaluator = MakeEvaluator(net);
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 8, 1);
  std::vector<search::EvalOutput> before(8), after(8), updated(8);
  evaluator->Evaluate(positions, before);
  {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.add_(0.5);
  }
  evaluator->Evaluate(positions, after);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(before[i].value, after[i].value);
  ASSERT_TRUE(evaluator->UpdateWeights(net).ok());
  evaluator->Evaluate(positions, updated);
  auto fresh = MakeEvaluator(net);
  std::vector<search::EvalOutput> reference(8);
  fresh->Evaluate(positions, reference);
  bool changed = false;
  for (int i = 0; i < 8; ++i) {
    changed |= updated[i].value != before[i].value;
    EXPECT_EQ(updated[i].value, reference[i].value);
  }
  EXPECT_TRUE(changed);
}

TEST(NetworkEvaluator, DeviceSelection) {
  VeletasNet net = RandomNet(5);
  NetConfig runtime = testing::TinyArch();
  runtime.device = Device::kAuto;
  auto automatic = NetworkEvaluator::FromNet(net, runtime);
  ASSERT_TRUE(automatic.ok());
  EXPECT_EQ(automatic.value()->DeviceName(), torch::cuda::is_available() ? "cuda:0" : "cpu");
  runtime.device = Device::kCuda;
  auto cuda = NetworkEvaluator::FromNet(net, runtime);
  if (torch::cuda::is_available()) {
    EXPECT_TRUE(cuda.ok());
  } else {
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error().find("CUDA is not available"), std::string::npos) << cuda.error();
  }
}

// Where there is a GPU: the network there evaluates a mixed batch (both rule sets, three
// sizes) as on the CPU, within the rounding of cuDNN's TF32 convolutions.
TEST(NetworkEvaluator, CudaAgreesWithTheCpu) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  VeletasNet net = RandomNet(11);
  NetConfig runtime = testing::TinyArch();
  auto cpu = MakeEvaluatorWith(net, runtime);
  runtime.device = Device::kCuda;
  auto cuda = MakeEvaluatorWith(net, runtime);
  ASSERT_EQ(cuda->DeviceName(), "cuda:0");
  const std::vector<Position> positions = Mixed();
  std::vector<search::EvalOutput> want(positions.size()), got(positions.size());
  cpu->Evaluate(positions, want);
  cuda->Evaluate(positions, got);
  double worst = 0.0;
  for (size_t i = 0; i < positions.size(); ++i) {
    worst = std::max<double>(worst, std::fabs(got[i].value - want[i].value));
    for (size_t k = 0; k < want[i].policy.size(); ++k) {
      worst = std::max<double>(worst, std::fabs(got[i].policy[k] - want[i].policy[k]));
    }
  }
  EXPECT_LE(worst, 5e-3);
  EXPECT_NE(got.front().value, got.back().value);  // real outputs, not a constant
}

TEST(NetworkEvaluator, AppliesItsThreadCountInTheCallingThread) {
  VeletasNet net = RandomNet(7);
  NetConfig runtime = testing::TinyArch();
  runtime.threads = 1;
  auto evaluator = MakeEvaluatorWith(net, runtime);
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 4, 2);
  int seen = 0;
  std::thread worker([&] {
    torch::set_num_threads(2);  // whatever this thread had before
    std::vector<search::EvalOutput> out(4);
    evaluator->Evaluate(positions, out);
    seen = torch::get_num_threads();
  });
  worker.join();
  EXPECT_EQ(seen, 1);
}

TEST(NetworkEvaluator, LoadChecksTheCheckpointAgainstTheSpec) {
  testing::TempDir dir;
  VeletasNet net = RandomNet(6);
  CheckpointMeta meta;
  meta.rules = RuleSet::kStandard;
  meta.size = 7;
  ASSERT_TRUE(SaveCheckpoint(dir.File("a.ckpt"), net, nullptr, meta).ok());
  ModelSpec spec{RuleSet::kStandard, 7, testing::TinyArch()};
  auto ok = NetworkEvaluator::Load(dir.File("a.ckpt"), spec, testing::TinyArch());
  ASSERT_TRUE(ok.ok()) << ok.error();
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 4, 2);
  std::vector<search::EvalOutput> loaded(4), direct(4);
  ok.value()->Evaluate(positions, loaded);
  MakeEvaluator(net)->Evaluate(positions, direct);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(loaded[i].value, direct[i].value);
  spec.size = 10;
  auto wrong = NetworkEvaluator::Load(dir.File("a.ckpt"), spec, testing::TinyArch());
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find(dir.File("a.ckpt")), std::string::npos) << wrong.error();
}

// The metadata SaveCheckpoint completes: game and generation.
CheckpointMeta GameMeta(RuleSet rules, int size, int64_t generation) {
  CheckpointMeta meta;
  meta.rules = rules;
  meta.size = size;
  meta.generation = generation;
  return meta;
}

TEST(NetworkEvaluator, OpenReadsTheCheckpointOnce) {
  // Two checkpoints of different generations and architectures. The loaded file turns from
  // the first into the second once it has been opened: metadata and weights must both come
  // from the first (a second read would load the other network, or fail on its shape).
  testing::TempDir dir;
  VeletasNet first = RandomNet(6);
  ASSERT_TRUE(
      SaveCheckpoint(dir.File("first.ckpt"), first, nullptr, GameMeta(RuleSet::kStandard, 7, 3))
          .ok());
  NetConfig wider = testing::TinyArch();
  wider.channels = 24;
  torch::manual_seed(7);
  ASSERT_TRUE(SaveCheckpoint(dir.File("second.ckpt"), MakeNet(wider), nullptr,
                             GameMeta(RuleSet::kStandard, 7, 9))
                  .ok());
  const std::string path = dir.File("swapped.ckpt");
  test_support::SwappedFile file(path, test_support::ReadAll(dir.File("first.ckpt")),
                                 test_support::ReadAll(dir.File("second.ckpt")));

  ModelRequirement need;
  need.rules = RuleSet::kStandard;
  need.size = 7;
  auto opened = NetworkEvaluator::Open(path, need, testing::TinyArch());
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_TRUE(file.Served());
  EXPECT_EQ(opened.value().meta.generation, 3);
  EXPECT_TRUE(opened.value().meta.arch.SameArchitecture(testing::TinyArch()));
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 4, 2);
  std::vector<search::EvalOutput> loaded(4), direct(4);
  opened.value().evaluator->Evaluate(positions, loaded);
  MakeEvaluator(first)->Evaluate(positions, direct);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(loaded[i].value, direct[i].value) << i;
  // The path now holds the second checkpoint: what a second read would have seen.
  EXPECT_EQ(ReadCheckpointMeta(path).value().generation, 9);
}

TEST(NetworkEvaluator, OpenChecksTheRequirementAndSaysWhatKindAnErrorIs) {
  testing::TempDir dir;
  ASSERT_TRUE(
      SaveCheckpoint(dir.File("a.ckpt"), RandomNet(2), nullptr, GameMeta(RuleSet::kClassic, 9, 4))
          .ok());
  // No requirement: the checkpoint's own game and architecture.
  auto any = NetworkEvaluator::Open(dir.File("a.ckpt"), {}, testing::TinyArch());
  ASSERT_TRUE(any.ok()) << any.error();
  EXPECT_EQ(any.value().meta.rules, RuleSet::kClassic);
  EXPECT_EQ(any.value().meta.generation, 4);
  ModelRequirement need;
  need.size = 7;
  need.source = "the match";
  auto wrong = NetworkEvaluator::Open(dir.File("a.ckpt"), need, testing::TinyArch());
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.kind(), util::ErrorKind::kBadInput);
  EXPECT_EQ(wrong.error(), dir.File("a.ckpt") +
                               " does not fit the match: board size mismatch: checkpoint is for "
                               "9x9, expected 7x7");
  need = ModelRequirement();
  need.arch = testing::TinyArch();
  need.arch->blocks = 3;
  auto arch = NetworkEvaluator::Open(dir.File("a.ckpt"), need, testing::TinyArch());
  ASSERT_FALSE(arch.ok());
  EXPECT_NE(arch.error().find("architecture mismatch"), std::string::npos) << arch.error();
  auto missing = NetworkEvaluator::Open(dir.File("none.ckpt"), {}, testing::TinyArch());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.kind(), util::ErrorKind::kBadInput);
  if (!torch::cuda::is_available()) {  // a device this machine does not have: a failure
    NetConfig cuda = testing::TinyArch();
    cuda.device = Device::kCuda;
    auto failed = NetworkEvaluator::Open(dir.File("a.ckpt"), {}, cuda);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.kind(), util::ErrorKind::kFailure) << failed.error();
  }
}

TEST(NetworkEvaluator, FreshEqualsTheInitialCheckpointOfTheSameSeed) {
  // What `veletas bench selfplay` without --model plays: the network `init-model` writes.
  testing::TempDir dir;
  const ModelSpec spec{RuleSet::kStandard, 7, testing::TinyArch()};
  ASSERT_TRUE(CreateInitialCheckpoint(dir.File("init.ckpt"), spec, 5).ok());
  auto loaded = NetworkEvaluator::Load(dir.File("init.ckpt"), spec, testing::TinyArch());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  auto fresh = NetworkEvaluator::Fresh(testing::TinyArch(), 5);
  ASSERT_TRUE(fresh.ok()) << fresh.error();
  auto other = NetworkEvaluator::Fresh(testing::TinyArch(), 6);
  ASSERT_TRUE(other.ok()) << other.error();
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 6, 4);
  std::vector<search::EvalOutput> a(6), b(6), c(6);
  loaded.value()->Evaluate(positions, a);
  fresh.value()->Evaluate(positions, b);
  other.value()->Evaluate(positions, c);
  bool differs = false;
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(a[i].value, b[i].value);
    EXPECT_EQ(a[i].policy, b[i].policy);
    differs |= a[i].value != c[i].value;
  }
  EXPECT_TRUE(differs);  // another seed, another network
}

}  // namespace
}  // namespace veletas::model
