// Architecture and runtime settings of the policy/value network. Plain data, no Torch.
#pragma once

#include <string>
#include <vector>

namespace veletas::model {

// The values of NetConfig::inference_precision.
inline const std::vector<std::string> kInferencePrecisions = {"auto", "fp32", "bf16", "int8",
                                                              "torch"};

struct NetConfig {
  // --- Architecture (stored in checkpoints; a checkpoint loads only into the same). ---
  int blocks = 6;          // residual blocks
  int channels = 64;       // channels per convolution of the trunk
  int head_channels = 32;  // 1x1-convolution channels of the policy, value and aux heads
  int value_hidden = 128;  // hidden units of the value head's fully connected layer
  // --- Runtime (not part of the architecture). ---
  std::string device = "cpu";  // "cpu", "cuda", or "auto" (cuda when available)
  int threads = 0;             // intra-op CPU threads; 0 = all cores
  // CPU inference precision (model/onednn/cpu_network.h): "auto" (int8 where the CPU has VNNI and
  // int8 agrees with fp32, else fp32), "fp32", "bf16", "int8", or "torch" (the training
  // path through LibTorch, the reference the others are measured against). CUDA devices
  // always run the LibTorch path.
  std::string inference_precision = "auto";

  // True when the architecture fields are equal (runtime fields are ignored).
  bool SameArchitecture(const NetConfig& o) const {
    return blocks == o.blocks && channels == o.channels && head_channels == o.head_channels &&
           value_hidden == o.value_hidden;
  }
};

}  // namespace veletas::model
