// The oneDNN training path (model/torch/onednn_trunk.h: the trunk and the heads' 1x1 layers on
// oneDNN, the rest of the heads in plain C++): the same outputs, losses (each term), gradients
// of every parameter (trunk and heads) and running statistics as LibTorch's ops, for boards 7,
// 9 and 10, on a fresh network and on the shipped (trained) networks, in fp32 and bf16; the
// heads alone against LibTorch's on features with ties and all-zero channels; the same weights
// after several SGD steps; a checkpoint trained on it loads in LibTorch with the same outputs;
// batches it does not take (boards smaller than the canvas) go through LibTorch's ops
// unchanged.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/base/features.h"
#include "model/base/shipped_networks.h"
#include "model/onednn/train_heads.h"
#include "model/torch/autocast.h"
#include "model/torch/checkpoint.h"
#include "model/torch/losses.h"
#include "model/torch/network.h"
#include "model/torch/onednn_trunk.h"
#include "tests/model/test_util.h"
#include "util/random.h"

namespace veletas::model {
namespace {

const torch::Device kCpu(torch::kCPU);

// Tolerances of the oneDNN trunk against LibTorch's ops, relative to the reference's L2 norm
// per tensor, on top of twice the difference a Baseline makes (ExpectSameStep). fp32: both
// sum in float in different orders (blocked convolutions, the batch norm's reductions), about
// 1e-6 relative per tensor on a fresh network. bf16: convolution inputs, weights and output
// gradients rounded to 8 bits of mantissa (2^-9 relative each) through every layer, forward and
// backward, as LibTorch's autocast rounds them (the baseline) but not at the same places.
struct Tolerances {
  double loss, grad, stats;
};
constexpr Tolerances kFp32{1e-5, 1e-4, 1e-5};
// fp32 on a trained network (the shipped ones): some pre-activations lie within float
// rounding of 0, and a ReLU that takes the other side moves the gradients of every layer
// below it. Measured on standard-10x10: LibTorch's own gradients move by up to 1.3e-3
// relative when its weights are jittered by 1e-6 relative, by exactly as much as the trunk's
// differ from them; the other layers and networks agree within 1e-5.
constexpr Tolerances kFp32Trained{1e-5, 2e-3, 1e-5};
constexpr Tolerances kBf16{1e-2, 2e-2, 1e-2};

NetConfig FreshArch() {
  NetConfig c = testing::TinyArch();
  c.blocks = 2;
  c.channels = 32;
  return c;
}

struct Batch {
  torch::Tensor planes;
  Targets targets;
};

// `count` positions of each size of `sizes` on the largest canvas, with targets: uniform
// policy over the legal actions, random results, random claimants.
Batch MakeBatch(const std::vector<int>& sizes, int count, uint64_t seed) {
  std::vector<rules::Position> positions;
  for (const int size : sizes) {
    const auto p = SamplePositions(rules::RuleSet::kStandard, size, count, seed + size);
    positions.insert(positions.end(), p.begin(), p.end());
  }
  EncodedBatch encoded;
  EncodeBatch(positions, 0, encoded);
  const int64_t m = encoded.canvas;
  const auto n = static_cast<int64_t>(positions.size());
  Batch b;
  b.planes = PlanesTensor(encoded, kCpu);
  b.targets.legal = LegalTensor(encoded, kCpu);
  const torch::Tensor legal_f = b.targets.legal.to(torch::kFloat);
  b.targets.policy = legal_f / legal_f.sum(1, true);
  util::Rng rng(seed);
  std::vector<float> values(n);
  std::vector<int64_t> aux(n * m * m, -1);
  for (int64_t i = 0; i < n; ++i) {
    values[i] = rng.Below(2) ? 1.0f : -1.0f;
    const rules::Position& p = positions[i];
    for (const int sq : p.AllShooters()) {
      aux[i * m * m + (sq / p.Size()) * m + sq % p.Size()] = static_cast<int64_t>(rng.Below(3));
    }
  }
  b.targets.value = torch::tensor(values);
  b.targets.aux = torch::from_blob(aux.data(), {n, m, m}, torch::kLong).clone();
  return b;
}

std::shared_ptr<OnednnTrunk> MakeTrunk(const NetConfig& arch, TrunkPrecision precision,
                                       std::vector<std::string>* notes = nullptr) {
  auto trunk = OnednnTrunk::Create(arch, precision, [notes](const std::string& m) {
    if (notes) notes->push_back(m);
  });
  EXPECT_TRUE(trunk.ok()) << trunk.error();
  return trunk.ok() ? trunk.value() : nullptr;
}

// A fresh network (torch seed `seed`) twice: on LibTorch's ops, and on the oneDNN path (its
// notes into `notes` when given).
std::pair<VeletasNet, VeletasNet> ReferenceAndFast(uint64_t seed,
                                                   std::vector<std::string>* notes = nullptr) {
  torch::manual_seed(seed);
  const VeletasNet start = MakeNet(FreshArch());
  VeletasNet fast = CloneNet(start, kCpu);
  fast->SetTrainingTrunk(MakeTrunk(start->arch(), TrunkPrecision::kFp32, notes));
  return {CloneNet(start, kCpu), fast};
}

struct StepResult {
  Losses losses;
  std::vector<torch::Tensor> grads;  // of net->parameters(), in order
};

StepResult LossesAndGrads(VeletasNet& net, const Batch& b, const LossWeights& w) {
  net->zero_grad();
  StepResult r;
  r.losses = ComputeLosses(net->forward(b.planes), b.targets, w);
  r.losses.total.backward();
  for (const torch::Tensor& p : net->parameters()) r.grads.push_back(p.grad().clone());
  return r;
}

// |a - b| / |b| in the L2 norm (|a - b| when b is 0).
double RelativeDiff(const torch::Tensor& a, const torch::Tensor& b) {
  const double diff = (a - b).norm().item<double>();
  const double norm = b.norm().item<double>();
  return norm > 0 ? diff / norm : diff;
}

// LibTorch's step with its forward pass under autocast to bf16: how far rounding to bf16
// moves the losses and gradients (the baseline of the bf16 trunk's tolerances).
StepResult AutocastStep(const VeletasNet& net, const Batch& b, const LossWeights& w) {
  VeletasNet other = CloneNet(net, kCpu);
  other->train();
  other->zero_grad();
  StepResult r;
  r.losses = ComputeLosses(TrainingForward(other, b.planes, /*bf16=*/true), b.targets, w);
  r.losses.total.backward();
  for (const torch::Tensor& p : other->parameters()) r.grads.push_back(p.grad().clone());
  return r;
}

// The oneDNN trunk's losses (each term), every parameter's gradient and the running
// statistics after the step against LibTorch's on `b`: each within the tolerance, for bf16
// plus twice the difference LibTorch's own autocast to bf16 makes.
void ExpectSameStep(const VeletasNet& net, const Batch& b, TrunkPrecision precision,
                    const Tolerances& tol) {
  VeletasNet reference = CloneNet(net, kCpu);
  VeletasNet fast = CloneNet(net, kCpu);
  reference->train();
  fast->train();
  fast->SetTrainingTrunk(MakeTrunk(net->arch(), precision));
  for (const bool cross_entropy : {false, true}) {
    const LossWeights w{1.0, 1.0, 0.5, cross_entropy};
    const StepResult r = LossesAndGrads(reference, b, w);
    const StepResult f = LossesAndGrads(fast, b, w);
    const bool bf16 = precision == TrunkPrecision::kBf16;
    const StepResult base = bf16 ? AutocastStep(net, b, w) : r;
    const std::pair<const char*, std::array<torch::Tensor, 3>> terms[] = {
        {"total", {f.losses.total, r.losses.total, base.losses.total}},
        {"policy", {f.losses.policy, r.losses.policy, base.losses.policy}},
        {"value", {f.losses.value, r.losses.value, base.losses.value}},
        {"aux", {f.losses.aux, r.losses.aux, base.losses.aux}}};
    for (const auto& [name, t] : terms) {
      EXPECT_LT(RelativeDiff(t[0], t[1]), tol.loss + 2 * RelativeDiff(t[2], t[1]))
          << name << " loss";
    }
    const auto names = reference->named_parameters();
    ASSERT_EQ(f.grads.size(), r.grads.size());
    for (size_t i = 0; i < r.grads.size(); ++i) {
      const double baseline = RelativeDiff(base.grads[i], r.grads[i]);
      EXPECT_LT(RelativeDiff(f.grads[i], r.grads[i]), tol.grad + 2 * baseline)
          << names[i].key() << " (baseline " << baseline << ")";
    }
    const auto ref_buffers = reference->named_buffers();
    const auto fast_buffers = fast->named_buffers();
    for (size_t i = 0; i < ref_buffers.size(); ++i) {
      EXPECT_LT(RelativeDiff(fast_buffers[i].value(), ref_buffers[i].value()), tol.stats)
          << ref_buffers[i].key();
    }
    // The outputs themselves.
    const NetOutput ro = reference->forward(b.planes);
    const NetOutput fo = fast->forward(b.planes);
    const std::pair<const char*, std::array<torch::Tensor, 2>> outputs[] = {
        {"policy", {fo.policy, ro.policy}},
        {"value", {fo.value, ro.value}},
        {"value_logit", {fo.value_logit, ro.value_logit}},
        {"aux", {fo.aux, ro.aux}}};
    for (const auto& [name, t] : outputs) {
      EXPECT_LT(RelativeDiff(t[0], t[1]), tol.grad) << name << " output";
    }
  }
}

bool HasBf16() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16");
}

class OnednnTrunkSizes : public ::testing::TestWithParam<int> {};

TEST_P(OnednnTrunkSizes, FreshNetworkFp32) {
  torch::manual_seed(3);
  const VeletasNet net = MakeNet(FreshArch());
  ExpectSameStep(net, MakeBatch({GetParam()}, 12, 40), TrunkPrecision::kFp32, kFp32);
}

TEST_P(OnednnTrunkSizes, ShippedNetworkFp32) {
  auto found = FindShippedNetwork(rules::RuleSet::kStandard, GetParam());
  ASSERT_TRUE(found.ok() && found.value().has_value());
  auto loaded = LoadCheckpoint(found.value()->checkpoint, nullptr);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ExpectSameStep(loaded.value().net, MakeBatch({GetParam()}, 16, 50), TrunkPrecision::kFp32,
                 kFp32Trained);
}

// The oneDNN path's bf16 step (convolutions in bf16; the heads' 1x1 layer, batch norms,
// residual stream and gradient sums in f32) against LibTorch fp32: within 2e-2 + twice what
// LibTorch's own autocast to bf16 moves each tensor (autocast really runs the convolutions in
// bf16, model/torch/network.h Conv).
TEST_P(OnednnTrunkSizes, FreshAndShippedNetworkBf16) {
  if (!HasBf16()) GTEST_SKIP() << "this CPU lacks AVX-512 BF16";
  torch::manual_seed(4);
  ExpectSameStep(MakeNet(FreshArch()), MakeBatch({GetParam()}, 12, 60), TrunkPrecision::kBf16,
                 kBf16);
  auto found = FindShippedNetwork(rules::RuleSet::kStandard, GetParam());
  ASSERT_TRUE(found.ok() && found.value().has_value());
  auto loaded = LoadCheckpoint(found.value()->checkpoint, nullptr);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ExpectSameStep(loaded.value().net, MakeBatch({GetParam()}, 16, 70), TrunkPrecision::kBf16, kBf16);
}

INSTANTIATE_TEST_SUITE_P(Boards, OnednnTrunkSizes, ::testing::Values(7, 9, 10));

// The heads past their first layer (TrainHeads) against the network's own LibTorch heads on
// the same features, chosen to hold what pooling makes delicate: a channel all zero (its
// maximum on every square), a maximum on three squares, a constant channel; random gradients
// of the three outputs. The maximum's gradient is shared between equal maxima, as amax's.
TEST(OnednnHeads, SameAsLibTorchHeadsWithTiedMaxima) {
  torch::manual_seed(9);
  const NetConfig arch = FreshArch();
  VeletasNet net = MakeNet(arch);
  const int64_t h = arch.head_channels, n = 5, m = 7;
  torch::Tensor f = torch::relu(torch::randn({n, 3 * h, m, m}));
  {
    torch::NoGradGuard no_grad;
    f[0][0].zero_();
    f[1][1].view(-1).narrow(0, 0, 3).fill_(5.0f);
    f[2][h + 2].fill_(0.7f);
    f[3][h].zero_();
  }
  f.requires_grad_(true);
  const torch::Tensor mask = torch::ones({n, 1, m, m});
  const torch::Tensor p = f.narrow(1, 0, h), v = f.narrow(1, h, h), a = f.narrow(1, 2 * h, h);
  const torch::Tensor policy =
      torch::cat({Conv(p, net->policy_out).flatten(1), net->pass_fc(MaskedPool(p, mask))}, 1);
  const torch::Tensor value_logit =
      net->value_fc2(torch::relu(net->value_fc1(MaskedPool(v, mask)))).squeeze(1);
  const torch::Tensor aux = Conv(a, net->aux_out);
  const torch::Tensor d_policy = torch::randn_like(policy);
  const torch::Tensor d_value = torch::randn({n});
  const torch::Tensor d_aux = torch::randn_like(aux);
  torch::autograd::backward({policy, value_logit, aux}, {d_policy, d_value, d_aux});

  std::vector<torch::Tensor> params = TrunkParameters(*net);
  params.erase(params.begin(), params.end() - 10);  // the heads past their first layers
  std::vector<torch::Tensor> grads;
  for (const torch::Tensor& t : params) grads.push_back(torch::empty_like(t));
  HeadTensors w;
  HeadGrads g;
  const float* HeadTensors::*in[] = {&HeadTensors::policy_out_w, &HeadTensors::policy_out_b,
                                     &HeadTensors::pass_w,       &HeadTensors::pass_b,
                                     &HeadTensors::value_fc1_w,  &HeadTensors::value_fc1_b,
                                     &HeadTensors::value_fc2_w,  &HeadTensors::value_fc2_b,
                                     &HeadTensors::aux_out_w,    &HeadTensors::aux_out_b};
  float* HeadGrads::*out[] = {&HeadGrads::policy_out_w, &HeadGrads::policy_out_b,
                              &HeadGrads::pass_w,       &HeadGrads::pass_b,
                              &HeadGrads::value_fc1_w,  &HeadGrads::value_fc1_b,
                              &HeadGrads::value_fc2_w,  &HeadGrads::value_fc2_b,
                              &HeadGrads::aux_out_w,    &HeadGrads::aux_out_b};
  for (size_t i = 0; i < params.size(); ++i) {
    w.*in[i] = params[i].data_ptr<float>();
    g.*out[i] = grads[i].data_ptr<float>();
  }
  TrainHeads heads(arch, static_cast<int>(n), static_cast<int>(m));
  const torch::Tensor features = f.detach().contiguous();
  torch::Tensor fast_policy = torch::empty_like(policy), fast_value = torch::empty({n});
  torch::Tensor fast_aux = torch::empty_like(aux), d_features = torch::empty_like(features);
  heads.Forward(
      features.data_ptr<float>(), w,
      {fast_policy.data_ptr<float>(), fast_value.data_ptr<float>(), fast_aux.data_ptr<float>()});
  heads.Backward(features.data_ptr<float>(), w,
                 {d_policy.data_ptr<float>(), d_value.data_ptr<float>(), d_aux.data_ptr<float>()},
                 g, d_features.data_ptr<float>());
  EXPECT_LT(RelativeDiff(fast_policy, policy), 1e-6);
  EXPECT_LT(RelativeDiff(fast_value, value_logit), 1e-6);
  EXPECT_LT(RelativeDiff(fast_aux, aux), 1e-6);
  EXPECT_LT(RelativeDiff(d_features, f.grad()), 1e-6);
  // The all-zero channel's maximum shares its gradient over all 49 squares, as amax's.
  EXPECT_LT(RelativeDiff(d_features[0][0], f.grad()[0][0]), 1e-6);
  EXPECT_LT(RelativeDiff(d_features[1][1], f.grad()[1][1]), 1e-6);
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_LT(RelativeDiff(grads[i], params[i].grad()), 1e-5) << "parameter " << i;
  }
  // A null output gradient counts as zero.
  heads.Backward(features.data_ptr<float>(), w, {d_policy.data_ptr<float>(), nullptr, nullptr}, g,
                 d_features.data_ptr<float>());
  EXPECT_EQ(grads[4].abs().sum().item<float>(), 0.0f);  // value_fc1.weight
  EXPECT_EQ(d_features.narrow(1, h, 2 * h).abs().sum().item<float>(), 0.0f);
}

// Only the policy used (the value and aux outputs get no gradient): the same gradients as
// LibTorch's, every other parameter's gradient zero on both.
TEST(OnednnTrunk, UnusedOutputsGetNoGradient) {
  auto [reference, fast] = ReferenceAndFast(10);
  const Batch b = MakeBatch({10}, 8, 600);
  std::vector<std::vector<torch::Tensor>> grads;
  for (VeletasNet* net : {&reference, &fast}) {
    (*net)->train();
    (*net)->zero_grad();
    PolicyLoss((*net)->forward(b.planes).policy, b.targets.policy, b.targets.legal).backward();
    grads.emplace_back();
    for (const torch::Tensor& p : (*net)->parameters()) {
      grads.back().push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    }
  }
  const auto names = reference->named_parameters();
  for (size_t i = 0; i < grads[0].size(); ++i) {
    EXPECT_LT(RelativeDiff(grads[1][i], grads[0][i]), kFp32.grad) << names[i].key();
  }
}

// Several SGD steps on each path from the same start: the same weights and statistics.
TEST(OnednnTrunk, SameWeightsAfterSgdSteps) {
  auto [reference, fast] = ReferenceAndFast(5);
  for (VeletasNet* net : {&reference, &fast}) {
    (*net)->train();
    torch::optim::SGD sgd((*net)->parameters(),
                          torch::optim::SGDOptions(0.02).momentum(0.9).weight_decay(1e-4));
    for (int s = 0; s < 5; ++s) {
      const Batch b = MakeBatch({9}, 16, 100 + s);
      sgd.zero_grad();
      ComputeLosses((*net)->forward(b.planes), b.targets, {}).total.backward();
      sgd.step();
    }
  }
  const auto r = NamedTensors(reference);
  const auto f = NamedTensors(fast);
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_LT(RelativeDiff(f[i].second, r[i].second), 1e-4) << r[i].first;
  }
}

// A network trained on the oneDNN trunk saves, loads into a plain LibTorch network and gives
// the same outputs.
TEST(OnednnTrunk, TrainedCheckpointLoadsInLibTorch) {
  torch::manual_seed(6);
  VeletasNet net = MakeNet(FreshArch());
  net->SetTrainingTrunk(MakeTrunk(net->arch(), TrunkPrecision::kFp32));
  net->train();
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  for (int s = 0; s < 3; ++s) {
    const Batch b = MakeBatch({10}, 16, 200 + s);
    sgd.zero_grad();
    ComputeLosses(net->forward(b.planes), b.targets, {}).total.backward();
    sgd.step();
  }
  const testing::TempDir dir("onednn_trunk_ckpt");
  const std::string path = dir.File("trained.ckpt");
  CheckpointMeta meta;
  meta.rules = rules::RuleSet::kStandard;
  meta.size = 10;
  ASSERT_TRUE(SaveCheckpoint(path, net, &sgd, meta).ok());
  auto loaded = LoadCheckpoint(path, nullptr);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  net->eval();
  torch::NoGradGuard no_grad;
  const Batch b = MakeBatch({10, 7}, 6, 300);
  const NetOutput a = net->forward(b.planes);
  const NetOutput c = loaded.value().net->forward(b.planes);
  EXPECT_TRUE(torch::equal(a.policy, c.policy));
  EXPECT_TRUE(torch::equal(a.value, c.value));
  EXPECT_TRUE(torch::equal(a.aux, c.aux));
}

// A batch with a board smaller than its canvas takes LibTorch's masked ops: the same outputs
// and gradients exactly, and one note saying why.
TEST(OnednnTrunk, MixedSizeBatchTakesLibTorch) {
  std::vector<std::string> notes;
  auto [reference, fast] = ReferenceAndFast(7, &notes);
  reference->train();
  fast->train();
  const Batch b = MakeBatch({7, 10}, 6, 400);
  const StepResult r = LossesAndGrads(reference, b, {});
  const StepResult f = LossesAndGrads(fast, b, {});
  EXPECT_TRUE(torch::equal(f.losses.total, r.losses.total));
  for (size_t i = 0; i < r.grads.size(); ++i) EXPECT_TRUE(torch::equal(f.grads[i], r.grads[i]));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("smaller than its canvas"), std::string::npos) << notes[0];
  LossesAndGrads(fast, b, {});
  EXPECT_EQ(notes.size(), 1u);  // once
}

// The backward of a forward that another forward of the same shape replaced is refused.
TEST(OnednnTrunk, StaleBackwardThrows) {
  torch::manual_seed(8);
  VeletasNet net = MakeNet(FreshArch());
  net->SetTrainingTrunk(MakeTrunk(net->arch(), TrunkPrecision::kFp32));
  net->train();
  const Batch b = MakeBatch({9}, 4, 500);
  const Losses first = ComputeLosses(net->forward(b.planes), b.targets, {});
  const Losses second = ComputeLosses(net->forward(b.planes), b.targets, {});
  second.total.backward();
  EXPECT_THROW(first.total.backward(), std::exception);
}

}  // namespace
}  // namespace veletas::model
