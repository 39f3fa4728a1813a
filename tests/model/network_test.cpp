// The network: masking makes padded boards equal native ones, the losses compute what they
// claim, and the whole training path learns (overfits a tiny fixed data set).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "model/base/features.h"
#include "model/torch/losses.h"
#include "model/torch/network.h"
#include "tests/model/test_util.h"
#include "util/random.h"

namespace veletas::model {
namespace {

using rules::Position;
using rules::RuleSet;

const torch::Device kCpu(torch::kCPU);

NetOutput Forward(VeletasNet& net, std::span<const Position> positions, int canvas) {
  EncodedBatch b;
  EncodeBatch(positions, canvas, b);
  return net->forward(PlanesTensor(b, kCpu));
}

// A tiny net whose batch-norm statistics and weights are not the trivial initial ones.
VeletasNet TrainedLookingNet(uint64_t seed) {
  torch::manual_seed(seed);
  VeletasNet net = MakeNet(testing::TinyArch());
  torch::NoGradGuard no_grad;
  for (auto& p : net->parameters()) p.add_(torch::randn_like(p) * 0.2);
  for (const auto& b : net->named_buffers()) {
    if (b.key().find("running_mean") != std::string::npos) b.value().normal_(0, 0.3);
    if (b.key().find("running_var") != std::string::npos) b.value().uniform_(0.5, 2.0);
  }
  net->eval();
  return net;
}

// Checks that outputs on canvas `big` equal those on the native canvas on every board square.
void ExpectSameOnBoard(const NetOutput& native, const NetOutput& padded,
                       std::span<const Position> positions, int big, double tol) {
  const int n = positions[0].Size();
  for (size_t i = 0; i < positions.size(); ++i) {
    for (int a = 0; a <= n * n; ++a) {
      EXPECT_NEAR(native.policy[i][a].item<float>(),
                  padded.policy[i][CanvasAction(n, big, a)].item<float>(), tol)
          << "position " << i << " action " << a;
    }
    EXPECT_NEAR(native.value[i].item<float>(), padded.value[i].item<float>(), tol);
    const torch::Tensor aux_native = native.aux[i];
    const torch::Tensor aux_padded = padded.aux[i].narrow(1, 0, n).narrow(2, 0, n);
    EXPECT_LT((aux_native - aux_padded).abs().max().item<float>(), tol);
  }
}

TEST(Network, OutputShapesAndRanges) {
  VeletasNet net = TrainedLookingNet(1);
  const auto positions = SamplePositions(RuleSet::kStandard, 9, 5, 3);
  torch::NoGradGuard no_grad;
  const NetOutput o = Forward(net, positions, 9);
  EXPECT_EQ(o.policy.sizes().vec(), (std::vector<int64_t>{5, 82}));
  EXPECT_EQ(o.value.sizes().vec(), (std::vector<int64_t>{5}));
  EXPECT_EQ(o.aux.sizes().vec(), (std::vector<int64_t>{5, 3, 9, 9}));
  EXPECT_LT(o.value.abs().max().item<float>(), 1.0f);
}

TEST(Network, Padded7x7In10x10EqualsNativeInEvalMode) {
  VeletasNet net = TrainedLookingNet(2);
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 24, 4);
  torch::NoGradGuard no_grad;
  const NetOutput native = Forward(net, positions, 7);
  const NetOutput padded = Forward(net, positions, 10);
  ExpectSameOnBoard(native, padded, positions, 10, 1e-5);
  // The value is not trivially constant: positions differ.
  EXPECT_GT((native.value - native.value[0]).abs().max().item<float>(), 1e-4);
}

TEST(Network, Padded7x7In10x10EqualsNativeInTrainingMode) {
  VeletasNet net = TrainedLookingNet(3);
  net->train();
  const auto positions = SamplePositions(RuleSet::kClassic, 7, 16, 6);
  const NetOutput native = Forward(net, positions, 7);
  const torch::Tensor mean_after_native = net->stem->bn->running_mean.clone();
  const NetOutput padded = Forward(net, positions, 10);
  ExpectSameOnBoard(native, padded, positions, 10, 1e-4);
  // Batch statistics come from board squares only: both passes moved the running mean by
  // the same batch mean, so the second update continues the first exactly.
  const torch::Tensor mean_after_padded = net->stem->bn->running_mean;
  const double m = MaskedBatchNormImpl::kMomentum;
  // r1 = (1-m) r0 + m mu; r2 = (1-m) r1 + m mu  =>  r2 - r1 = (1-m) (r1 - r0).
  const torch::Tensor r0 = TrainedLookingNet(3)->stem->bn->running_mean;
  EXPECT_LT(((mean_after_padded - mean_after_native) - (1 - m) * (mean_after_native - r0))
                .abs()
                .max()
                .item<float>(),
            1e-5);
}

TEST(Network, MixedSizesInOneBatchEqualSeparateBatches) {
  VeletasNet net = TrainedLookingNet(4);
  auto small = SamplePositions(RuleSet::kStandard, 7, 6, 8);
  auto large = SamplePositions(RuleSet::kStandard, 10, 6, 8);
  std::vector<Position> mixed = small;
  mixed.insert(mixed.end(), large.begin(), large.end());
  torch::NoGradGuard no_grad;
  const NetOutput together = Forward(net, mixed, 0);
  const NetOutput alone = Forward(net, small, 7);
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(together.value[i].item<float>(), alone.value[i].item<float>(), 1e-5);
  }
}

TEST(Losses, PolicyLossBySoftmaxOverLegalActions) {
  // Legal actions 0 and 1 with logits 0 and ln 2: probabilities 1/3 and 2/3; action 2 is
  // illegal and its large logit must not matter.
  const torch::Tensor logits =
      torch::tensor({0.0f, std::log(2.0f), 5.0f}).unsqueeze(0).set_requires_grad(true);
  const torch::Tensor target = torch::tensor({0.5f, 0.5f, 0.0f}).unsqueeze(0);
  const torch::Tensor legal = torch::tensor({true, true, false}).unsqueeze(0);
  const torch::Tensor loss = PolicyLoss(logits, target, legal);
  const double expected = -0.5 * std::log(1.0 / 3.0) - 0.5 * std::log(2.0 / 3.0);
  EXPECT_NEAR(loss.item<double>(), expected, 1e-6);
  loss.backward();
  const torch::Tensor g = logits.grad();
  // d/dlogit = p - target on legal actions; zero on the illegal one, never NaN.
  EXPECT_NEAR(g[0][0].item<float>(), 1.0 / 3.0 - 0.5, 1e-6);
  EXPECT_NEAR(g[0][1].item<float>(), 2.0 / 3.0 - 0.5, 1e-6);
  EXPECT_EQ(g[0][2].item<float>(), 0.0f);
}

TEST(Losses, ValueCrossEntropyIsThatOfTheChanceOfWinningAndDoesNotSaturate) {
  // Logit 0: chance 1/2; against a win (target 1) the loss is ln 2, against a loss too.
  const torch::Tensor zero = torch::zeros({2});
  EXPECT_NEAR(ValueCrossEntropy(zero, torch::tensor({1.0f, -1.0f})).item<double>(), std::log(2.0),
              1e-6);
  // Logit atanh(0.6): tanh 0.6, chance 0.8; a soft target 0.2 (chance 0.6).
  const float x = std::atanh(0.6f);
  EXPECT_NEAR(ValueCrossEntropy(torch::tensor({x}), torch::tensor({0.2f})).item<double>(),
              -(0.6 * std::log(0.8) + 0.4 * std::log(0.2)), 1e-5);
  // Confidently wrong (tanh near -1 against a win): the squared error's gradient through the
  // tanh vanishes; the cross-entropy's stays near 2 (d/dlogit = 2 (chance - target chance)).
  torch::Tensor logit = torch::tensor({-6.0f}).requires_grad_(true);
  ValueCrossEntropy(logit, torch::tensor({1.0f})).backward();
  EXPECT_NEAR(logit.grad().item<float>(), -2.0f, 1e-3);
  torch::Tensor logit2 = torch::tensor({-6.0f}).requires_grad_(true);
  ValueLoss(torch::tanh(logit2), torch::tensor({1.0f})).backward();
  EXPECT_LT(std::abs(logit2.grad().item<float>()), 0.01f);
}

TEST(Losses, TheValueTermFollowsTheChosenLoss) {
  VeletasNet net = TrainedLookingNet(3);
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 2, 4);
  const NetOutput out = Forward(net, positions, 7);
  EXPECT_TRUE(torch::allclose(out.value, torch::tanh(out.value_logit)));
  Targets t;
  t.policy = torch::zeros_like(out.policy);
  t.policy.select(1, 0).fill_(1.0f);
  t.legal = torch::ones_like(out.policy, torch::kBool);
  t.value = torch::tensor({1.0f, -1.0f}).narrow(0, 0, out.value.size(0));
  t.aux = torch::full({out.value.size(0), 7, 7}, -1, torch::kLong);
  LossWeights w;
  EXPECT_NEAR(ComputeLosses(out, t, w).value.item<double>(),
              ValueLoss(out.value, t.value).item<double>(), 1e-6);
  w.value_cross_entropy = true;
  EXPECT_NEAR(ComputeLosses(out, t, w).value.item<double>(),
              ValueCrossEntropy(out.value_logit, t.value).item<double>(), 1e-6);
}

TEST(Losses, ValueAndAuxLoss) {
  EXPECT_NEAR(ValueLoss(torch::tensor({0.5f, -1.0f}), torch::tensor({1.0f, 1.0f})).item<float>(),
              (0.25 + 4.0) / 2, 1e-6);
  // Two squares with shooters (classes 0 and 2), the rest ignored. Logits zero on the
  // first shooter square: log(1/3); on the second, class 2 has logit ln 2 of {0, 0, ln 2}:
  // probability 1/2.
  torch::Tensor logits = torch::zeros({1, 3, 2, 2});
  logits[0][2][1][1] = std::log(2.0f);
  logits[0][0][0][1] = 100.0f;  // an ignored square
  torch::Tensor target = torch::full({1, 2, 2}, -1, torch::kLong);
  target[0][0][0] = 0;
  target[0][1][1] = 2;
  const double expected = (std::log(3.0) + std::log(2.0)) / 2;
  EXPECT_NEAR(AuxLoss(logits, target).item<double>(), expected, 1e-6);
  EXPECT_EQ(AuxLoss(logits, torch::full({1, 2, 2}, -1, torch::kLong)).item<float>(), 0.0f);
}

// 32 fixed positions with fixed targets: the total loss must fall close to its minimum
// (policy cross-entropy down to the targets' entropy) within a bounded number of steps.
TEST(Network, OverfitsATinyFixedDataSet) {
  torch::manual_seed(11);
  NetConfig arch = testing::TinyArch();
  arch.channels = 32;
  VeletasNet net = MakeNet(arch);
  // 32 distinct positions (random games repeat the empty board, and equal inputs with
  // different targets could not be fitted).
  const auto positions = SamplePositions(RuleSet::kStandard, 7, 32 * 8, 21);
  std::vector<Position> data;
  std::set<uint64_t> seen;
  for (size_t i = 0; i < positions.size() && data.size() < 32; i += 4) {
    if (seen.insert(positions[i].Hash()).second) data.push_back(positions[i]);
  }
  ASSERT_EQ(data.size(), 32u);

  EncodedBatch b;
  EncodeBatch(data, 7, b);
  const torch::Tensor x = PlanesTensor(b, kCpu);
  Targets t;
  t.legal = LegalTensor(b, kCpu);
  t.policy = torch::zeros({32, 50});
  t.value = torch::zeros({32});
  t.aux = torch::full({32, 7, 7}, -1, torch::kLong);
  util::Rng rng(5);
  for (int i = 0; i < 32; ++i) {
    std::vector<int> legal;
    for (int a = 0; a < 50; ++a) {
      if (b.legal[i * 50 + a]) legal.push_back(a);
    }
    const int first = legal[rng.Below(legal.size())];
    const int second = legal[rng.Below(legal.size())];
    // Half the targets one-hot, half split between two actions (when there are two).
    if (i % 2 == 0 || first == second) {
      t.policy[i][first] = 1.0f;
    } else {
      t.policy[i][first] = 0.5f;
      t.policy[i][second] = 0.5f;
    }
    t.value[i] = rng.Below(2) ? 1.0f : -1.0f;
    for (int sq : data[i].AllShooters()) {
      t.aux[i][sq / 7][sq % 7] = static_cast<int64_t>(rng.Below(3));
    }
  }
  const double entropy = PolicyTargetEntropy(t.policy).item<double>();
  EXPECT_GT(entropy, 0.1);  // the split targets make the minimum non-zero

  torch::optim::AdamW optimizer(net->parameters(),
                                torch::optim::AdamWOptions(3e-3).weight_decay(1e-4));
  const LossWeights weights{1.0, 1.0, 0.5};
  net->train();
  Losses first = ComputeLosses(net->forward(x), t, weights);
  const double initial = first.total.item<double>() - entropy;
  double excess = initial;
  int steps = 0;
  for (; steps < 600 && excess > 0.02; ++steps) {
    const Losses l = ComputeLosses(net->forward(x), t, weights);
    optimizer.zero_grad();
    l.total.backward();
    optimizer.step();
    excess = l.total.item<double>() - entropy;
  }
  EXPECT_GT(initial, 1.0);
  EXPECT_LE(excess, 0.02) << "after " << steps << " steps";
  // The trained net also fits in eval mode (running statistics of the same batch).
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 50; ++i) net->forward(x);  // settle the running statistics
  net->eval();
  const Losses eval = ComputeLosses(net->forward(x), t, weights);
  EXPECT_LT(eval.total.item<double>() - entropy, 0.1);
  EXPECT_LT(eval.value.item<double>(), 0.05);
}

}  // namespace
}  // namespace veletas::model
