// LibTorch's autocast to bf16 for the forward pass of training (training/train_loop.cpp) and
// of bench nn's training rows (model/nn_bench.cpp). Include only from model/ and training/.
#pragma once

#include <torch/torch.h>

#include "model/torch/network.h"

namespace veletas::model {

// Turns LibTorch's autocast to bf16 on or off for the device type of `device` (CPU or CUDA):
// CPU autocast alone leaves a network on the GPU in fp32.
void SetBf16Autocast(const torch::Device& device, bool on);

// Autocast to bf16 on `device` for the guard's lifetime when `on` (else nothing): inside,
// convolutions and matrix products run in bf16 on bf16 copies of the fp32 weights; the
// destructor turns autocast off and clears the cache of those copies (a new step's weights
// differ). Not nestable; the calling thread only.
class Bf16AutocastGuard {
 public:
  Bf16AutocastGuard(const torch::Device& device, bool on);
  ~Bf16AutocastGuard();
  Bf16AutocastGuard(const Bf16AutocastGuard&) = delete;
  Bf16AutocastGuard& operator=(const Bf16AutocastGuard&) = delete;

 private:
  torch::Device device_;
  bool on_;
};

// The training forward pass of `net` on `planes` (on the network's device): under autocast to
// bf16 when `bf16`, with the outputs returned in fp32 either way, so that the losses (and
// their gradients back to the network's outputs) are computed in fp32.
NetOutput TrainingForward(VeletasNet& net, const torch::Tensor& planes, bool bf16);

}  // namespace veletas::model
