#include "model/torch/fold_weights.h"

namespace veletas::model {

namespace {

std::vector<float> ToVector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace

FoldedConv FoldConvBn(const ConvBn& layer) {
  torch::NoGradGuard no_grad;
  const torch::Tensor w = layer->conv->weight.detach().to(torch::kCPU, torch::kDouble);
  const MaskedBatchNorm& bn = layer->bn;
  const torch::Tensor gamma = bn->weight.detach().to(torch::kCPU, torch::kDouble);
  const torch::Tensor inv_std = torch::rsqrt(
      bn->running_var.detach().to(torch::kCPU, torch::kDouble) + MaskedBatchNormImpl::kEps);
  const torch::Tensor scale = gamma * inv_std;
  FoldedConv out;
  out.out = static_cast<int>(w.size(0));
  out.in = static_cast<int>(w.size(1));
  out.kernel = static_cast<int>(w.size(2));
  out.weight = ToVector(w * scale.view({-1, 1, 1, 1}));
  out.bias = ToVector(bn->bias.detach().to(torch::kCPU, torch::kDouble) -
                      bn->running_mean.detach().to(torch::kCPU, torch::kDouble) * scale);
  return out;
}

namespace {

FoldedConv Stack(const FoldedConv& a, const FoldedConv& b) {
  FoldedConv out = a;
  out.out = a.out + b.out;
  out.weight.insert(out.weight.end(), b.weight.begin(), b.weight.end());
  out.bias.insert(out.bias.end(), b.bias.begin(), b.bias.end());
  return out;
}

}  // namespace

InferenceWeights FoldWeights(const VeletasNet& net) {
  torch::NoGradGuard no_grad;
  InferenceWeights w;
  w.arch = net->arch();
  w.stem = FoldConvBn(net->stem);
  for (const ResidualBlock& block : net->blocks) {
    w.trunk.push_back(FoldConvBn(block->a));
    w.trunk.push_back(FoldConvBn(block->b));
  }
  w.heads = Stack(FoldConvBn(net->policy_conv), FoldConvBn(net->value_conv));
  w.policy_w = ToVector(net->policy_out->weight);
  w.policy_b = ToVector(net->policy_out->bias)[0];
  w.pass_w = ToVector(net->pass_fc->weight);
  w.pass_b = ToVector(net->pass_fc->bias)[0];
  w.value1_w = ToVector(net->value_fc1->weight);
  w.value1_b = ToVector(net->value_fc1->bias);
  w.value2_w = ToVector(net->value_fc2->weight);
  w.value2_b = ToVector(net->value_fc2->bias)[0];
  return w;
}

}  // namespace veletas::model
