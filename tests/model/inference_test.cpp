// The CPU inference engine (model/onednn/inference_net.h, model/onednn/cpu_network.h) against the
// training path (LibTorch, VeletasNet::forward in eval mode): a fresh network and one
// trained for a few steps (so batch norm folding matters), every board size, mixed-size
// batches, padded batch buckets, and each reduced precision within its stated tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "model/onednn/cpu_network.h"
#include "model/torch/fold_weights.h"
#include "model/torch/losses.h"
#include "model/torch/network.h"
#include "tests/model/test_util.h"

namespace veletas::model {
namespace {

using rules::Position;
using rules::RuleSet;

// fp32 engine vs LibTorch: largest absolute difference of a probability or a value.
constexpr double kFp32Tolerance = 2e-4;

NetConfig Arch() {
  NetConfig c;
  c.blocks = 2;
  c.channels = 24;  // not a multiple of 16: blocked layouts pad channels
  c.head_channels = 8;
  c.value_hidden = 16;
  c.threads = 2;
  return c;
}

std::vector<Position> Positions(int size, int count, uint64_t seed) {
  std::vector<Position> all;
  for (RuleSet rs : {RuleSet::kStandard, RuleSet::kClassic}) {
    const auto some = SamplePositions(rs, size, count / 2, seed + static_cast<int>(rs));
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

// A network after a few SGD steps in training mode: batch norm statistics and weights away
// from their initial values, as in any trained network.
VeletasNet TrainedNet(uint64_t seed) {
  torch::manual_seed(seed);
  VeletasNet net = MakeNet(Arch());
  net->train();
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  EncodedBatch b;
  for (int step = 0; step < 30; ++step) {
    const auto positions = Positions(step % 2 ? 7 : 10, 32, 100 + step);
    EncodeBatch(positions, 0, b);
    Targets t;
    t.legal = LegalTensor(b, torch::kCPU);
    const torch::Tensor legal_f = t.legal.to(torch::kFloat);
    t.policy = legal_f / legal_f.sum(1, true);
    t.value = torch::rand({b.batch}) * 2 - 1;
    t.aux = torch::full({b.batch, b.canvas, b.canvas}, -1, torch::kLong);
    const Losses l = ComputeLosses(net->forward(PlanesTensor(b, torch::kCPU)), t, LossWeights{});
    sgd.zero_grad();
    l.total.backward();
    sgd.step();
  }
  net->eval();
  return net;
}

VeletasNet FreshNet(uint64_t seed) {
  torch::manual_seed(seed);
  VeletasNet net = MakeNet(Arch());
  net->eval();
  return net;
}

// The training path's evaluation: softmax over legal actions of the LibTorch forward pass.
std::vector<search::EvalOutput> Reference(VeletasNet& net, const std::vector<Position>& positions) {
  NetConfig runtime = Arch();
  runtime.inference_precision = model::InferencePrecision::kTorch;
  auto e = NetworkEvaluator::FromNet(net, runtime);
  EXPECT_TRUE(e.ok());
  std::vector<search::EvalOutput> out(positions.size());
  e.value()->Evaluate(positions, out);
  return out;
}

double MaxDifference(const std::vector<search::EvalOutput>& a,
                     const std::vector<search::EvalOutput>& b) {
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max<double>(worst, std::fabs(a[i].value - b[i].value));
    for (size_t k = 0; k < a[i].policy.size(); ++k) {
      worst = std::max<double>(worst, std::fabs(a[i].policy[k] - b[i].policy[k]));
    }
  }
  return worst;
}

std::unique_ptr<CpuNetwork> Engine(const VeletasNet& net, Precision p) {
  auto e = CpuNetwork::CreateExact(FoldWeights(net), p);
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error());
  return e.ok() ? std::move(e.value()) : nullptr;
}

TEST(InferenceNet, Fp32AgreesWithTheTrainingPathOnEveryBoardSize) {
  for (bool trained : {false, true}) {
    VeletasNet net = trained ? TrainedNet(1) : FreshNet(1);
    auto engine = Engine(net, Precision::kFp32);
    ASSERT_TRUE(engine);
    for (int size : {7, 9, 10}) {
      const auto positions = Positions(size, 40, 7 * size);
      const auto want = Reference(net, positions);
      std::vector<search::EvalOutput> got(positions.size());
      engine->Evaluate(positions, got);
      EXPECT_LE(MaxDifference(got, want), kFp32Tolerance)
          << (trained ? "trained" : "fresh") << " network, size " << size;
    }
  }
}

TEST(InferenceNet, MixedSizeBatchEqualsTheTrainingPathOnACommonCanvas) {
  VeletasNet net = TrainedNet(2);
  auto engine = Engine(net, Precision::kFp32);
  ASSERT_TRUE(engine);
  std::vector<Position> positions;
  for (int size : {10, 7, 9, 7}) {
    const auto some = Positions(size, 10, size);
    positions.insert(positions.end(), some.begin(), some.end());
  }
  const auto want = Reference(net, positions);  // one batch, padded to 10x10, masked
  std::vector<search::EvalOutput> got(positions.size());
  engine->Evaluate(positions, got);
  EXPECT_LE(MaxDifference(got, want), kFp32Tolerance);
}

TEST(InferenceNet, PaddingABatchToItsBucketChangesNoResult) {
  VeletasNet net = TrainedNet(3);
  auto engine = Engine(net, Precision::kFp32);
  ASSERT_TRUE(engine);
  const auto positions = Positions(9, 40, 5);
  std::vector<search::EvalOutput> all(positions.size());
  engine->Evaluate(positions, all);  // bucket 40
  for (int n : {1, 3, 9, 17}) {      // buckets 1, 3, 16, 24
    std::vector<search::EvalOutput> part(n);
    engine->Evaluate(std::span(positions).first(n), part);
    EXPECT_LE(MaxDifference(part, std::vector(all.begin(), all.begin() + n)), 1e-5) << n;
  }
  EXPECT_EQ(BatchBucket(1), 1);
  EXPECT_EQ(BatchBucket(9), 16);
  EXPECT_EQ(BatchBucket(64), 64);
  EXPECT_EQ(BatchBucket(65), 96);
  EXPECT_EQ(BatchBucket(257), 320);
}

// /proc/cpuinfo lists `flag` (e.g. "avx512_vnni").
bool CpuHas(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string word;
  while (in >> word) {
    if (word == flag) return true;
  }
  return false;
}

TEST(InferenceNet, SupportFollowsTheCpuFlags) {
  EXPECT_TRUE(CpuSupports(Precision::kFp32).ok());
  const util::Status bf16 = CpuSupports(Precision::kBf16);
  EXPECT_EQ(bf16.ok(), CpuHas("avx512_bf16"));
  if (!bf16.ok()) {
    EXPECT_EQ(bf16.kind(), util::ErrorKind::kFailure);
    EXPECT_NE(bf16.error().find("avx512_bf16"), std::string::npos) << bf16.error();
  }
  EXPECT_EQ(CpuSupports(Precision::kInt8).ok(), CpuHas("avx512_vnni") || CpuHas("avx_vnni"));
}

// Each reduced precision, where this CPU has it, on a trained network: within the
// tolerance `auto` applies (Agreement), and a proper distribution over legal actions.
TEST(InferenceNet, ReducedPrecisionsAgreeWithFp32WithinTheirTolerance) {
  VeletasNet net = TrainedNet(4);
  auto fp32 = Engine(net, Precision::kFp32);
  ASSERT_TRUE(fp32);
  int tested = 0;
  for (Precision p : {Precision::kBf16, Precision::kInt8}) {
    if (!CpuSupports(p).ok()) continue;
    auto reduced = Engine(net, p);
    ASSERT_TRUE(reduced);
    const Agreement a = reduced->Compare(*fp32, AgreementPositions());
    EXPECT_TRUE(a.Holds()) << PrecisionName(p) << ": " << a.Describe();
    EXPECT_GT(a.mean_value_diff, 0.0) << PrecisionName(p) << " is not really reduced";
    ++tested;
  }
  if (tested == 0) GTEST_SKIP() << "this CPU has neither bf16 nor VNNI";
}

TEST(InferenceNet, AutoSaysWhatItChoseAndAnExplicitPrecisionItLacksFallsBack) {
  VeletasNet net = TrainedNet(5);
  std::string note;
  auto chosen = CpuNetwork::Create(FoldWeights(net), InferencePrecision::kAuto, &note);
  ASSERT_TRUE(chosen.ok());
  const char* name = PrecisionName(chosen.value()->precision());
  EXPECT_NE(note.find(name), std::string::npos) << note;
  const Precision expected = CpuSupports(Precision::kInt8).ok()   ? Precision::kInt8
                             : CpuSupports(Precision::kBf16).ok() ? Precision::kBf16
                                                                  : Precision::kFp32;
  EXPECT_EQ(chosen.value()->precision(), expected) << note;
  for (Precision p : {Precision::kBf16, Precision::kInt8}) {
    auto explicit_choice = CpuNetwork::Create(FoldWeights(net), AsInferencePrecision(p), &note);
    ASSERT_TRUE(explicit_choice.ok());
    const bool has = CpuSupports(p).ok();
    EXPECT_EQ(explicit_choice.value()->precision(), has ? p : Precision::kFp32) << note;
    if (!has) {
      EXPECT_NE(note.find("unavailable"), std::string::npos) << note;
    }
  }
}

TEST(InferenceNet, UpdatedWeightsReachTheEngine) {
  VeletasNet a = TrainedNet(6), b = TrainedNet(7);
  NetConfig runtime = Arch();
  runtime.inference_precision = model::InferencePrecision::kFp32;
  auto e = NetworkEvaluator::FromNet(a, runtime);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e.value()->PrecisionName(), "fp32");
  const auto positions = Positions(7, 20, 9);
  std::vector<search::EvalOutput> got(positions.size());
  ASSERT_TRUE(e.value()->UpdateWeights(b).ok());
  e.value()->Evaluate(positions, got);
  EXPECT_LE(MaxDifference(got, Reference(b, positions)), kFp32Tolerance);
  EXPECT_GT(MaxDifference(got, Reference(a, positions)), 1e-3);
}

}  // namespace
}  // namespace veletas::model
