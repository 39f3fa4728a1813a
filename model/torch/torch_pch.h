// Precompiled header of the Torch includes (target_precompile_headers in model/ and tests/).
#pragma once

#include <torch/script.h>
#include <torch/torch.h>
