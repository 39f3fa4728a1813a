// Architecture and runtime settings of the policy/value network. Plain data, no Torch.
#pragma once

#include <string>

namespace veletas::model {

struct NetConfig {
  // --- Architecture (stored in checkpoints; a checkpoint loads only into the same). ---
  int blocks = 6;          // residual blocks
  int channels = 64;       // channels per convolution of the trunk
  int head_channels = 32;  // 1x1-convolution channels of the policy, value and aux heads
  int value_hidden = 128;  // hidden units of the value head's fully connected layer
  // --- Runtime (not part of the architecture). ---
  std::string device = "cpu";  // "cpu", "cuda", or "auto" (cuda when available)
  int threads = 0;             // intra-op CPU threads; 0 = all cores

  // True when the architecture fields are equal (runtime fields are ignored).
  bool SameArchitecture(const NetConfig& o) const {
    return blocks == o.blocks && channels == o.channels && head_channels == o.head_channels &&
           value_hidden == o.value_hidden;
  }
};

}  // namespace veletas::model
