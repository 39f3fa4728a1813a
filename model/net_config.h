// Architecture and runtime settings of the policy/value network. Plain data, no Torch.
#pragma once

#include <string>

namespace veletas::model {

struct NetConfig {
  int blocks = 6;              // residual blocks
  int channels = 64;           // channels per convolution
  std::string device = "cpu";  // "cpu", "cuda", or "auto" (cuda when available)
  int threads = 0;             // intra-op CPU threads; 0 = all cores
};

}  // namespace veletas::model
