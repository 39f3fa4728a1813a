#include "model/torch/network.h"

#include <ATen/autocast_mode.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "model/base/features.h"
#include "model/torch/onednn_trunk.h"

namespace veletas::model {

torch::Tensor Conv(const torch::Tensor& x, const torch::nn::Conv2d& conv) {
  const int64_t pad = conv->weight.size(-1) / 2;  // every convolution here is "same"
  const c10::optional<torch::Tensor> bias =
      conv->bias.defined() ? c10::optional<torch::Tensor>(conv->bias) : c10::nullopt;
  if (x.is_cpu() && at::hasMKLDNN() && at::globalContext().userEnabledMkldnn()) {
    // Under CPU autocast, in its dtype (bf16) as autocast runs torch::conv2d:
    // mkldnn_convolution is not on autocast's list, so it would stay fp32 otherwise.
    if (at::autocast::is_cpu_enabled() && x.is_floating_point()) {
      const auto type = at::autocast::get_autocast_cpu_dtype();
      const c10::optional<torch::Tensor> low_bias =
          bias ? c10::optional<torch::Tensor>(bias->to(type)) : c10::nullopt;
      return torch::mkldnn_convolution(x.to(type), conv->weight.to(type), low_bias, {pad, pad},
                                       {1, 1}, {1, 1}, 1);
    }
    if (x.scalar_type() == torch::kFloat) {
      return torch::mkldnn_convolution(x, conv->weight, bias, {pad, pad}, {1, 1}, {1, 1}, 1);
    }
  }
  return torch::conv2d(x, conv->weight, bias, {1, 1}, {pad, pad});
}

MaskedBatchNormImpl::MaskedBatchNormImpl(int channels) {
  weight = register_parameter("weight", torch::ones({channels}));
  bias = register_parameter("bias", torch::zeros({channels}));
  running_mean = register_buffer("running_mean", torch::zeros({channels}));
  running_var = register_buffer("running_var", torch::ones({channels}));
}

torch::Tensor MaskedBatchNormImpl::forward(const torch::Tensor& x, const torch::Tensor& mask,
                                           const torch::Tensor& count) {
  if (!is_training()) {
    // Exactly what the exported TorchScript module computes.
    return torch::batch_norm(x, weight, bias, running_mean, running_var, /*training=*/false,
                             kMomentum, kEps, /*cudnn_enabled=*/false);
  }
  const auto view = std::vector<int64_t>{1, -1, 1, 1};
  const torch::Tensor mean = (x * mask).sum({0, 2, 3}) / count;
  const torch::Tensor centered = (x - mean.view(view)) * mask;
  const torch::Tensor var = centered.square().sum({0, 2, 3}) / count;
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor unbiased = var.detach() * count / (count - 1).clamp_min(1);
    running_mean.mul_(1 - kMomentum).add_(mean.detach() * kMomentum);
    running_var.mul_(1 - kMomentum).add_(unbiased * kMomentum);
  }
  const torch::Tensor scale = torch::rsqrt(var + kEps) * weight;
  return (x - mean.view(view)) * scale.view(view) + bias.view(view);
}

ConvBnImpl::ConvBnImpl(int in, int out, int kernel) {
  conv = register_module(
      "conv",
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false)));
  bn = register_module("bn", MaskedBatchNorm(out));
}

torch::Tensor ConvBnImpl::forward(const torch::Tensor& x, const torch::Tensor& mask,
                                  const torch::Tensor& count) {
  return bn(Conv(x, conv), mask, count);
}

ResidualBlockImpl::ResidualBlockImpl(int channels) {
  a = register_module("a", ConvBn(channels, channels, 3));
  b = register_module("b", ConvBn(channels, channels, 3));
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x, const torch::Tensor& mask,
                                         const torch::Tensor& count) {
  const torch::Tensor h = torch::relu(a(x, mask, count)) * mask;
  return torch::relu(x + b(h, mask, count)) * mask;
}

torch::Tensor MaskedPool(const torch::Tensor& x, const torch::Tensor& mask) {
  const torch::Tensor area = mask.sum({1, 2, 3}).unsqueeze(1);  // [B, 1]
  const torch::Tensor mean = x.sum({2, 3}) / area;
  // x >= 0 everywhere and 0 off the board, so the plain maximum is the board maximum.
  const torch::Tensor max = x.amax({2, 3});
  const torch::Tensor scale = (area.sqrt() - 8.5) / 1.5;
  return torch::cat({mean, max, mean * scale}, 1);
}

VeletasNetImpl::VeletasNetImpl(const NetConfig& arch) : arch_(arch) {
  const int c = arch.channels;
  const int h = arch.head_channels;
  stem = register_module("stem", ConvBn(kNumPlanes, c, 3));
  for (int i = 0; i < arch.blocks; ++i) {
    blocks.push_back(register_module("block" + std::to_string(i), ResidualBlock(c)));
  }
  policy_conv = register_module("policy_conv", ConvBn(c, h, 1));
  policy_out = register_module("policy_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(h, 1, 1)));
  pass_fc = register_module("pass_fc", torch::nn::Linear(3 * h, 1));
  value_conv = register_module("value_conv", ConvBn(c, h, 1));
  value_fc1 = register_module("value_fc1", torch::nn::Linear(3 * h, arch.value_hidden));
  value_fc2 = register_module("value_fc2", torch::nn::Linear(arch.value_hidden, 1));
  aux_conv = register_module("aux_conv", ConvBn(c, h, 1));
  aux_out = register_module("aux_out", torch::nn::Conv2d(torch::nn::Conv2dOptions(h, 3, 1)));
}

torch::Tensor VeletasNetImpl::TorchTrunk(const torch::Tensor& x, const torch::Tensor& mask,
                                         const torch::Tensor& count) {
  torch::Tensor t = torch::relu(stem(x, mask, count)) * mask;
  for (ResidualBlock& block : blocks) t = block(t, mask, count);
  return t;
}

NetOutput VeletasNetImpl::forward(const torch::Tensor& x) {
  if (trunk_ && is_training()) {
    if (std::optional<NetOutput> fast = trunk_->Forward(*this, x)) return *fast;
  }
  const torch::Tensor mask = x.narrow(1, kPlaneMask, 1);
  const torch::Tensor count = mask.sum();
  const torch::Tensor t = TorchTrunk(x, mask, count);

  NetOutput out;
  const torch::Tensor p = torch::relu(policy_conv(t, mask, count)) * mask;
  out.policy = torch::cat({Conv(p, policy_out).flatten(1), pass_fc(MaskedPool(p, mask))}, 1);
  const torch::Tensor v = torch::relu(value_conv(t, mask, count)) * mask;
  out.value_logit = value_fc2(torch::relu(value_fc1(MaskedPool(v, mask)))).squeeze(1);
  out.value = torch::tanh(out.value_logit);
  const torch::Tensor a = torch::relu(aux_conv(t, mask, count)) * mask;
  out.aux = Conv(a, aux_out);
  return out;
}

VeletasNet MakeNet(const NetConfig& arch) { return VeletasNet(arch); }

std::vector<std::pair<std::string, torch::Tensor>> NamedTensors(const VeletasNet& net) {
  std::vector<std::pair<std::string, torch::Tensor>> result;
  for (const auto& p : net->named_parameters(/*recurse=*/true)) {
    result.emplace_back(p.key(), p.value());
  }
  for (const auto& b : net->named_buffers(/*recurse=*/true)) {
    result.emplace_back(b.key(), b.value());
  }
  return result;
}

VeletasNet CloneNet(const VeletasNet& net, const torch::Device& device) {
  VeletasNet copy = MakeNet(net->arch());
  copy->to(device);
  CopyWeights(net, copy);
  copy->train(net->is_training());
  return copy;
}

void CopyWeights(const VeletasNet& from, VeletasNet& to) {
  const auto source = NamedTensors(from);
  const auto target = NamedTensors(to);
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < source.size(); ++i) target[i].second.copy_(source[i].second);
}

util::Result<torch::Device> SelectDevice(Device device) {
  if (device == Device::kCpu) return torch::Device(torch::kCPU);
  if (torch::cuda::is_available()) return torch::Device(torch::kCUDA, 0);
  if (device == Device::kAuto) return torch::Device(torch::kCPU);
  return util::Result<torch::Device>::Failure(
      "device \"cuda\" requested but CUDA is not available (CPU-only LibTorch or no GPU "
      "visible); use \"cpu\" or \"auto\"");
}

torch::Tensor PlanesTensor(const EncodedBatch& batch, const torch::Device& device) {
  return torch::from_blob(const_cast<float*>(batch.planes.data()),
                          {batch.batch, kNumPlanes, batch.canvas, batch.canvas}, torch::kFloat)
      .to(device, /*non_blocking=*/false, /*copy=*/true);
}

torch::Tensor LegalTensor(const EncodedBatch& batch, const torch::Device& device) {
  return torch::from_blob(const_cast<uint8_t*>(batch.legal.data()),
                          {batch.batch, CanvasActions(batch.canvas)}, torch::kUInt8)
      .to(device, torch::kBool, /*non_blocking=*/false, /*copy=*/true);
}

int ApplyThreadSetting(int threads) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int count = threads > 0 ? threads : cores;
  torch::set_num_threads(count);
  return count;
}

}  // namespace veletas::model
