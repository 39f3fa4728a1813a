// What `veletas bench nn` prints: the network, evaluations per second by precision and batch
// size, and training samples per second, measured with NnBench (model/nn_bench.h).
#pragma once

#include <string>
#include <vector>

#include "model/nn_bench.h"

namespace veletas::model {

// Measures and prints to stdout, line by line as the figures come: the network of `o` and
// the device, then for batch sizes 1, 2, 4, ... up to `max_batch` the evaluations per second
// of each of `precisions` (each batch size measured for every precision in turn, so that
// ratios compare like with like) with the ratio to fp32 (the inference engine) and to
// "torch" (the LibTorch path), GFLOP/s and the fraction of the peak; then the raw training
// step's samples per second at batch 32, 128 and 256 (up to `max_batch`) on the paths `veletas
// bench train` measures (LibTorch fp32, LibTorch bf16 autocast, the oneDNN path in fp32 and
// bf16) with the ratio to LibTorch fp32.
// A precision this machine cannot run is named, not measured.
void PrintNnBench(NnBench& b, const NnBenchOptions& o, const std::vector<std::string>& precisions,
                  int max_batch);

}  // namespace veletas::model
