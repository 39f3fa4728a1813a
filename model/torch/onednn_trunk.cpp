#include "model/torch/onednn_trunk.h"

#include <ATen/autocast_mode.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/base/features.h"
#include "model/torch/network.h"

namespace veletas::model {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

constexpr int kParamsPerLayer = 3;  // conv.weight, bn.weight, bn.bias
constexpr size_t kMaxPlans = 8;     // (batch, board size) pairs kept

// What a forward pass hands its backward: the plan and which of its forwards this was.
struct Pending {
  TrainTrunk* plan = nullptr;
  int64_t serial = 0;
};

std::vector<TrunkLayerTensors> LayerTensors(const std::vector<torch::Tensor>& params,
                                            const std::vector<torch::Tensor>& running) {
  std::vector<TrunkLayerTensors> layers(params.size() / kParamsPerLayer);
  for (size_t l = 0; l < layers.size(); ++l) {
    layers[l].conv_weight = params[kParamsPerLayer * l].data_ptr<float>();
    layers[l].bn_weight = params[kParamsPerLayer * l + 1].data_ptr<float>();
    layers[l].bn_bias = params[kParamsPerLayer * l + 2].data_ptr<float>();
    if (!running.empty()) {
      layers[l].running_mean = running[2 * l].data_ptr<float>();
      layers[l].running_var = running[2 * l + 1].data_ptr<float>();
    }
  }
  return layers;
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

// The running statistics of the trunk's batch norms: per layer running_mean, running_var.
std::vector<torch::Tensor> TrunkRunning(VeletasNetImpl& net) {
  std::vector<torch::Tensor> r;
  ForEachTrunkLayer(net, [&](ConvBnImpl& cb) {
    r.push_back(cb.bn->running_mean);
    r.push_back(cb.bn->running_var);
  });
  return r;
}

// The trunk as one autograd node: forward through TrainTrunk::Forward, backward through
// TrainTrunk::Backward into the parameters' gradients.
struct TrunkFunction : public torch::autograd::Function<TrunkFunction> {
  static torch::Tensor forward(AutogradContext* ctx, Pending* pending, const torch::Tensor& x,
                               const std::vector<torch::Tensor>& running,
                               torch::TensorList params) {
    std::vector<torch::Tensor> p(params.begin(), params.end());
    const std::vector<TrunkLayerTensors> layers = LayerTensors(p, running);
    const int64_t c = p[0].size(0);
    torch::Tensor out = torch::empty({x.size(0), c, x.size(2), x.size(3)}, x.options());
    pending->plan->Forward(x.data_ptr<float>(), layers, out.data_ptr<float>());
    ctx->saved_data["serial"] = pending->serial;
    ctx->saved_data["pending"] = reinterpret_cast<int64_t>(pending);
    ctx->save_for_backward(p);
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_out) {
    const auto* pending = reinterpret_cast<const Pending*>(ctx->saved_data["pending"].toInt());
    TrainTrunk* plan = pending->plan;
    if (plan == nullptr || pending->serial != ctx->saved_data["serial"].toInt()) {
      throw std::runtime_error(
          "the oneDNN trunk's backward pass must follow its own forward pass (another forward "
          "of the same batch and board size ran in between)");
    }
    const std::vector<torch::Tensor> p = ctx->get_saved_variables();
    const std::vector<TrunkLayerTensors> layers = LayerTensors(p, {});
    std::vector<torch::Tensor> grads;
    std::vector<TrunkLayerGrads> g(layers.size());
    for (size_t i = 0; i < p.size(); ++i) grads.push_back(torch::empty_like(p[i]));
    for (size_t l = 0; l < g.size(); ++l) {
      g[l].conv_weight = grads[kParamsPerLayer * l].data_ptr<float>();
      g[l].bn_weight = grads[kParamsPerLayer * l + 1].data_ptr<float>();
      g[l].bn_bias = grads[kParamsPerLayer * l + 2].data_ptr<float>();
    }
    const torch::Tensor d_out = grad_out[0].contiguous();
    plan->Backward(d_out.data_ptr<float>(), layers, g);
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
  std::map<std::pair<int, int>, std::unique_ptr<TrainTrunk>> plans;
  std::map<std::pair<int, int>, std::string> refused;  // shapes oneDNN refused, and why
  std::set<std::string> noted;
  TrunkProfile* profile = nullptr;
  // One per (batch, board size): what its plan's last forward handed to its autograd node
  // (kept when plans are dropped, so that a stale backward finds its serial outdated).
  std::map<std::pair<int, int>, std::unique_ptr<Pending>> pending;

  void Note(const std::string& reason) {
    if (note && noted.insert(reason).second) note(reason);
  }
  util::Result<TrainTrunk*> Plan(int batch, int size);
};

util::Result<TrainTrunk*> OnednnTrunk::Impl::Plan(int batch, int size) {
  const std::pair<int, int> key{batch, size};
  if (auto it = plans.find(key); it != plans.end()) return it->second.get();
  if (auto it = refused.find(key); it != refused.end()) {
    return util::Result<TrainTrunk*>::Failure(it->second);
  }
  auto made = TrainTrunk::Create(arch, precision, batch, size,
                                 {MaskedBatchNormImpl::kEps, MaskedBatchNormImpl::kMomentum});
  if (!made) {
    refused[key] = made.error();
    return util::Result<TrainTrunk*>::Failure(made.error());
  }
  if (plans.size() >= kMaxPlans) {
    plans.clear();
    for (auto& [shape, p] : pending) {
      p->plan = nullptr;
      ++p->serial;
    }
  }
  TrainTrunk* plan = made.value().get();
  plan->SetProfile(profile);
  plans[key] = std::move(made.value());
  return plan;
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
  for (auto& [shape, plan] : impl_->plans) plan->SetProfile(profile);
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
  return p;
}

std::optional<torch::Tensor> OnednnTrunk::Forward(VeletasNetImpl& net, const torch::Tensor& x) {
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
  auto plan = im.Plan(batch, size);
  if (!plan) {
    im.Note(plan.error() + ": LibTorch's ops for batch " + std::to_string(batch) + " on " +
            std::to_string(size) + "x" + std::to_string(size));
    return std::nullopt;
  }
  std::unique_ptr<Pending>& pending = im.pending[{batch, size}];
  if (!pending) pending = std::make_unique<Pending>();
  pending->plan = plan.value();
  ++pending->serial;
  const std::vector<torch::Tensor> params = TrunkParameters(net);
  return TrunkFunction::apply(pending.get(), x.contiguous(), TrunkRunning(net),
                              torch::TensorList(params));
}

}  // namespace veletas::model
