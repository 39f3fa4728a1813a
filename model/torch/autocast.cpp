#include "model/torch/autocast.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace veletas::model {

// LibTorch 2.4 replaced the per-backend calls by ones taking the device type (the old ones
// are deprecated there).
void SetBf16Autocast(const torch::Device& device, bool on) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  at::autocast::set_autocast_enabled(device.type(), on);
  if (on) at::autocast::set_autocast_dtype(device.type(), at::kBFloat16);
#else
  if (device.is_cuda()) {
    at::autocast::set_enabled(on);
    if (on) at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
  } else {
    at::autocast::set_cpu_enabled(on);
    if (on) at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
  }
#endif
}

Bf16AutocastGuard::Bf16AutocastGuard(const torch::Device& device, bool on)
    : device_(device), on_(on) {
  if (on_) SetBf16Autocast(device_, true);
}

Bf16AutocastGuard::~Bf16AutocastGuard() {
  if (!on_) return;
  SetBf16Autocast(device_, false);
  at::autocast::clear_cache();
}

NetOutput TrainingForward(VeletasNet& net, const torch::Tensor& planes, bool bf16) {
  NetOutput out;
  {
    const Bf16AutocastGuard autocast(planes.device(), bf16);
    out = net->forward(planes);
  }
  if (bf16) {
    out.policy = out.policy.to(torch::kFloat);
    out.value = out.value.to(torch::kFloat);
    out.value_logit = out.value_logit.to(torch::kFloat);
    out.aux = out.aux.to(torch::kFloat);
  }
  return out;
}

}  // namespace veletas::model
