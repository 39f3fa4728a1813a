#include "model/torch/onednn_trunk.h"

#include <ATen/autocast_mode.h>

#include <array>
#include <chrono>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/base/features.h"
#include "model/onednn/train_heads.h"
#include "model/torch/network.h"

namespace veletas::model {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

constexpr int kParamsPerLayer = 3;  // conv.weight, bn.weight, bn.bias
constexpr int kHeads = 3;           // policy, value, aux: their first layers are one layer
constexpr int kHeadParams = kParamsPerLayer * kHeads;
constexpr int kTailParams = 10;  // policy_out, pass_fc, value_fc1, value_fc2, aux_out
constexpr size_t kMaxPlans = 8;  // (batch, board size) pairs kept

// The trunk's and the heads' primitives and buffers for one (batch, board size).
struct Plan {
  std::unique_ptr<TrainTrunk> trunk;
  std::unique_ptr<TrainHeads> heads;
};

// What a forward pass hands its backward: the plan, which of its forwards this was, and
// where the heads' time goes while profiled.
struct Pending {
  Plan* plan = nullptr;
  int64_t serial = 0;
  TrunkProfile* profile = nullptr;
};

// Runs `f`, its seconds added to `*field` of `profile` when one is attached.
template <class F>
void TimedHeads(TrunkProfile* profile, double TrunkProfile::*field, F&& f) {
  if (profile == nullptr) {
    f();
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  f();
  profile->*field +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The parameters of TrunkParameters' order, split: the trunk's convolutions, the heads' first
// layers (concatenated into one layer of 3 * head_channels outputs), the rest of the heads.
struct SplitParams {
  std::vector<torch::Tensor> trunk;                       // kParamsPerLayer per layer
  torch::Tensor head_conv, head_bn_weight, head_bn_bias;  // concatenated over the heads
  std::vector<torch::Tensor> tail;                        // kTailParams

  explicit SplitParams(const std::vector<torch::Tensor>& p) {
    const size_t trunk_end = p.size() - kHeadParams - kTailParams;
    trunk.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(trunk_end));
    const auto cat = [&](size_t first) {
      return torch::cat({p[first], p[first + 1], p[first + 2]}).contiguous();
    };
    head_conv = cat(trunk_end);
    head_bn_weight = cat(trunk_end + kHeads);
    head_bn_bias = cat(trunk_end + 2 * kHeads);
    tail.assign(p.end() - kTailParams, p.end());
  }
};

TrunkLayerTensors Layer(const torch::Tensor& conv, const torch::Tensor& bn_weight,
                        const torch::Tensor& bn_bias) {
  TrunkLayerTensors l;
  l.conv_weight = conv.data_ptr<float>();
  l.bn_weight = bn_weight.data_ptr<float>();
  l.bn_bias = bn_bias.data_ptr<float>();
  return l;
}

// The layers' tensors for TrainTrunk: the trunk's, then the heads' first layer.
std::vector<TrunkLayerTensors> LayerTensors(const SplitParams& p) {
  std::vector<TrunkLayerTensors> layers;
  for (size_t i = 0; i < p.trunk.size(); i += kParamsPerLayer) {
    layers.push_back(Layer(p.trunk[i], p.trunk[i + 1], p.trunk[i + 2]));
  }
  layers.push_back(Layer(p.head_conv, p.head_bn_weight, p.head_bn_bias));
  return layers;
}

HeadTensors Tail(const std::vector<torch::Tensor>& t) {
  HeadTensors h;
  const float** fields[] = {&h.policy_out_w, &h.policy_out_b, &h.pass_w,      &h.pass_b,
                            &h.value_fc1_w,  &h.value_fc1_b,  &h.value_fc2_w, &h.value_fc2_b,
                            &h.aux_out_w,    &h.aux_out_b};
  for (int i = 0; i < kTailParams; ++i) *fields[i] = t[i].data_ptr<float>();
  return h;
}

HeadGrads TailGrads(std::vector<torch::Tensor>& t) {
  HeadGrads g;
  float** fields[] = {&g.policy_out_w, &g.policy_out_b, &g.pass_w,      &g.pass_b,
                      &g.value_fc1_w,  &g.value_fc1_b,  &g.value_fc2_w, &g.value_fc2_b,
                      &g.aux_out_w,    &g.aux_out_b};
  for (int i = 0; i < kTailParams; ++i) *fields[i] = t[i].data_ptr<float>();
  return g;
}

// Calls `f` on the trunk's ConvBn layers in TrainTrunk's order: stem, block0.a, block0.b, ...
template <class F>
void ForEachTrunkLayer(VeletasNetImpl& net, F&& f) {
  f(*net.stem);
  for (ResidualBlock& b : net.blocks) {
    f(*b->a);
    f(*b->b);
  }
}

// The heads' first layers: policy, value, aux.
std::array<ConvBnImpl*, kHeads> HeadLayers(VeletasNetImpl& net) {
  return {net.policy_conv.get(), net.value_conv.get(), net.aux_conv.get()};
}

// Calls `f` on every ConvBn layer: the trunk's (ForEachTrunkLayer), then the heads' first.
template <class F>
void ForEachConvBn(VeletasNetImpl& net, F&& f) {
  ForEachTrunkLayer(net, f);
  for (ConvBnImpl* cb : HeadLayers(net)) f(*cb);
}

// The running statistics of every batch norm (ForEachConvBn's order): running_mean,
// running_var each.
std::vector<torch::Tensor> RunningStats(VeletasNetImpl& net) {
  std::vector<torch::Tensor> r;
  ForEachConvBn(net, [&](ConvBnImpl& cb) {
    r.push_back(cb.bn->running_mean);
    r.push_back(cb.bn->running_var);
  });
  return r;
}

// Points `layers` at the running statistics of RunningStats' `running`; the heads' layer at
// the concatenation `head` ([2][3h]: means, variances), which UpdateHeadRunning copies back.
void SetRunning(std::vector<TrunkLayerTensors>& layers, const std::vector<torch::Tensor>& running,
                torch::Tensor& head) {
  for (size_t l = 0; l + 1 < layers.size(); ++l) {
    layers[l].running_mean = running[2 * l].data_ptr<float>();
    layers[l].running_var = running[2 * l + 1].data_ptr<float>();
  }
  const size_t first = 2 * (layers.size() - 1);
  head = torch::stack({torch::cat({running[first], running[first + 2], running[first + 4]}),
                       torch::cat({running[first + 1], running[first + 3], running[first + 5]})});
  layers.back().running_mean = head[0].data_ptr<float>();
  layers.back().running_var = head[1].data_ptr<float>();
}

void UpdateHeadRunning(const std::vector<torch::Tensor>& running, const torch::Tensor& head) {
  const size_t first = running.size() - 2 * kHeads;
  const int64_t h = running[first].size(0);
  for (int i = 0; i < kHeads; ++i) {
    running[first + 2 * i].copy_(head[0].narrow(0, i * h, h));
    running[first + 2 * i + 1].copy_(head[1].narrow(0, i * h, h));
  }
}

// The network as one autograd node: forward through TrainTrunk::Forward and
// TrainHeads::Forward, backward through their Backward into every parameter's gradient.
// Outputs: policy logits [B, M*M + 1], value logit [B], aux logits [B, 3, M, M].
struct NetFunction : public torch::autograd::Function<NetFunction> {
  static variable_list forward(AutogradContext* ctx, Pending* pending, const torch::Tensor& x,
                               const std::vector<torch::Tensor>& running,
                               torch::TensorList params) {
    const std::vector<torch::Tensor> p(params.begin(), params.end());
    const SplitParams split(p);
    std::vector<TrunkLayerTensors> layers = LayerTensors(split);
    torch::Tensor head_running;
    SetRunning(layers, running, head_running);
    const int64_t n = x.size(0), m = x.size(2);
    const int64_t features = split.head_bn_weight.size(0);
    torch::Tensor f = torch::empty({n, features, m, m}, x.options());
    Plan& plan = *pending->plan;
    plan.trunk->Forward(x.data_ptr<float>(), layers, f.data_ptr<float>());
    UpdateHeadRunning(running, head_running);
    torch::Tensor policy = torch::empty({n, m * m + 1}, x.options());
    torch::Tensor value_logit = torch::empty({n}, x.options());
    torch::Tensor aux = torch::empty({n, 3, m, m}, x.options());
    TimedHeads(pending->profile, &TrunkProfile::heads_forward, [&] {
      plan.heads->Forward(
          f.data_ptr<float>(), Tail(split.tail),
          {policy.data_ptr<float>(), value_logit.data_ptr<float>(), aux.data_ptr<float>()});
    });
    ctx->saved_data["serial"] = pending->serial;
    ctx->saved_data["pending"] = reinterpret_cast<int64_t>(pending);
    ctx->saved_data["features"] = f;
    ctx->save_for_backward(p);
    return {policy, value_logit, aux};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_out) {
    const auto* pending = reinterpret_cast<const Pending*>(ctx->saved_data["pending"].toInt());
    if (pending->plan == nullptr || pending->serial != ctx->saved_data["serial"].toInt()) {
      throw std::runtime_error(
          "the oneDNN network's backward pass must follow its own forward pass (another "
          "forward of the same batch and board size ran in between)");
    }
    Plan& plan = *pending->plan;
    const std::vector<torch::Tensor> p = ctx->get_saved_variables();
    const torch::Tensor f = ctx->saved_data["features"].toTensor();
    const SplitParams split(p);
    const std::vector<TrunkLayerTensors> layers = LayerTensors(split);
    std::vector<torch::Tensor> grads;
    for (const torch::Tensor& t : p) grads.push_back(torch::empty_like(t));
    std::vector<torch::Tensor> tail_grads(grads.end() - kTailParams, grads.end());
    for (torch::Tensor& g : grad_out) {
      if (g.defined()) g = g.contiguous();
    }
    const auto ptr = [](const torch::Tensor& g) -> const float* {
      return g.defined() ? g.data_ptr<float>() : nullptr;
    };
    torch::Tensor d_features = torch::empty_like(f);
    TimedHeads(pending->profile, &TrunkProfile::heads_backward, [&] {
      plan.heads->Backward(f.data_ptr<float>(), Tail(split.tail),
                           {ptr(grad_out[0]), ptr(grad_out[1]), ptr(grad_out[2])},
                           TailGrads(tail_grads), d_features.data_ptr<float>());
    });
    const torch::Tensor head_conv = torch::empty_like(split.head_conv);
    const torch::Tensor head_bn_weight = torch::empty_like(split.head_bn_weight);
    const torch::Tensor head_bn_bias = torch::empty_like(split.head_bn_bias);
    std::vector<TrunkLayerGrads> g(layers.size());
    for (size_t l = 0; l + 1 < g.size(); ++l) {
      g[l].conv_weight = grads[kParamsPerLayer * l].data_ptr<float>();
      g[l].bn_weight = grads[kParamsPerLayer * l + 1].data_ptr<float>();
      g[l].bn_bias = grads[kParamsPerLayer * l + 2].data_ptr<float>();
    }
    g.back() = {head_conv.data_ptr<float>(), head_bn_weight.data_ptr<float>(),
                head_bn_bias.data_ptr<float>()};
    plan.trunk->Backward(d_features.data_ptr<float>(), layers, g);
    // The heads' first layers: the concatenated gradients split per head.
    const size_t first = split.trunk.size();
    const int64_t h = head_bn_weight.size(0) / kHeads;
    const torch::Tensor* joined[] = {&head_conv, &head_bn_weight, &head_bn_bias};
    for (int k = 0; k < kParamsPerLayer; ++k) {
      for (int i = 0; i < kHeads; ++i) {
        grads[first + kHeads * k + i].copy_(joined[k]->narrow(0, i * h, h));
      }
    }
    // pending, x and running: no gradient; then one per parameter.
    variable_list result(3);
    result.insert(result.end(), grads.begin(), grads.end());
    return result;
  }
};

}  // namespace

struct OnednnTrunk::Impl {
  NetConfig arch;
  TrunkPrecision precision = TrunkPrecision::kFp32;
  NoteFn note;
  std::string implementation;
  std::map<std::pair<int, int>, std::unique_ptr<Plan>> plans;
  std::map<std::pair<int, int>, std::string> refused;  // shapes oneDNN refused, and why
  std::set<std::string> noted;
  TrunkProfile* profile = nullptr;
  // One per (batch, board size): what its plan's last forward handed to its autograd node
  // (kept when plans are dropped, so that a stale backward finds its serial outdated).
  std::map<std::pair<int, int>, std::unique_ptr<Pending>> pending;

  void Note(const std::string& reason) {
    if (note && noted.insert(reason).second) note(reason);
  }
  util::Result<Plan*> MakePlan(int batch, int size);
};

util::Result<Plan*> OnednnTrunk::Impl::MakePlan(int batch, int size) {
  const std::pair<int, int> key{batch, size};
  if (auto it = plans.find(key); it != plans.end()) return it->second.get();
  if (auto it = refused.find(key); it != refused.end()) {
    return util::Result<Plan*>::Failure(it->second);
  }
  auto made = TrainTrunk::Create(arch, precision, batch, size,
                                 {MaskedBatchNormImpl::kEps, MaskedBatchNormImpl::kMomentum});
  if (!made) {
    refused[key] = made.error();
    return util::Result<Plan*>::Failure(made.error());
  }
  if (plans.size() >= kMaxPlans) {
    plans.clear();
    for (auto& [shape, p] : pending) {
      p->plan = nullptr;
      ++p->serial;
    }
  }
  auto plan = std::make_unique<Plan>();
  plan->trunk = std::move(made.value());
  plan->trunk->SetProfile(profile);
  plan->heads = std::make_unique<TrainHeads>(arch, batch, size);
  Plan* result = plan.get();
  plans[key] = std::move(plan);
  return result;
}

util::Result<std::shared_ptr<OnednnTrunk>> OnednnTrunk::Create(const NetConfig& arch,
                                                               TrunkPrecision precision,
                                                               NoteFn note) {
  auto im = std::make_unique<Impl>();
  im->arch = arch;
  im->precision = precision;
  im->note = std::move(note);
  auto probe = TrainTrunk::Create(arch, precision, 4, 9,
                                  {MaskedBatchNormImpl::kEps, MaskedBatchNormImpl::kMomentum});
  if (!probe) return util::Result<std::shared_ptr<OnednnTrunk>>::Failure(probe.error());
  im->implementation = probe.value()->Implementation();
  return std::shared_ptr<OnednnTrunk>(new OnednnTrunk(std::move(im)));
}

OnednnTrunk::OnednnTrunk(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OnednnTrunk::~OnednnTrunk() = default;

void OnednnTrunk::SetProfile(TrunkProfile* profile) {
  impl_->profile = profile;
  for (auto& [shape, plan] : impl_->plans) plan->trunk->SetProfile(profile);
}

TrunkPrecision OnednnTrunk::precision() const { return impl_->precision; }
const std::string& OnednnTrunk::implementation() const { return impl_->implementation; }

std::vector<torch::Tensor> TrunkParameters(VeletasNetImpl& net) {
  std::vector<torch::Tensor> p;
  ForEachTrunkLayer(net, [&](ConvBnImpl& cb) {
    p.push_back(cb.conv->weight);
    p.push_back(cb.bn->weight);
    p.push_back(cb.bn->bias);
  });
  const auto heads = HeadLayers(net);
  for (ConvBnImpl* cb : heads) p.push_back(cb->conv->weight);
  for (ConvBnImpl* cb : heads) p.push_back(cb->bn->weight);
  for (ConvBnImpl* cb : heads) p.push_back(cb->bn->bias);
  p.insert(p.end(),
           {net.policy_out->weight, net.policy_out->bias, net.pass_fc->weight, net.pass_fc->bias,
            net.value_fc1->weight, net.value_fc1->bias, net.value_fc2->weight, net.value_fc2->bias,
            net.aux_out->weight, net.aux_out->bias});
  return p;
}

std::optional<NetOutput> OnednnTrunk::Forward(VeletasNetImpl& net, const torch::Tensor& x) {
  Impl& im = *impl_;
  if (!x.is_cpu() || x.scalar_type() != torch::kFloat) {
    im.Note("the oneDNN trunk takes float CPU tensors only: LibTorch's ops for other batches");
    return std::nullopt;
  }
  if (at::autocast::is_cpu_enabled()) {
    im.Note("autocast is on: LibTorch's ops for the trunk");
    return std::nullopt;
  }
  if (x.narrow(1, kPlaneMask, 1).min().item<float>() < 1.0f) {
    im.Note(
        "a batch holds boards smaller than its canvas: LibTorch's masked ops for such "
        "batches (the oneDNN trunk runs batches of one board size)");
    return std::nullopt;
  }
  const int batch = static_cast<int>(x.size(0));
  const int size = static_cast<int>(x.size(2));
  auto plan = im.MakePlan(batch, size);
  if (!plan) {
    im.Note(plan.error() + ": LibTorch's ops for batch " + std::to_string(batch) + " on " +
            std::to_string(size) + "x" + std::to_string(size));
    return std::nullopt;
  }
  std::unique_ptr<Pending>& pending = im.pending[{batch, size}];
  if (!pending) pending = std::make_unique<Pending>();
  pending->plan = plan.value();
  pending->profile = im.profile;
  ++pending->serial;
  const std::vector<torch::Tensor> params = TrunkParameters(net);
  const variable_list outputs = NetFunction::apply(pending.get(), x.contiguous(), RunningStats(net),
                                                   torch::TensorList(params));
  NetOutput out;
  out.policy = outputs[0];
  out.value_logit = outputs[1];
  out.value = torch::tanh(out.value_logit);
  out.aux = outputs[2];
  return out;
}

}  // namespace veletas::model
