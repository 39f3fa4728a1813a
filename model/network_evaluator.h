// search::Evaluator running a trained network on the backend its settings pick: the oneDNN
// inference engine on the CPU (model/onednn/), LibTorch on CUDA or with precision `torch`
// (model/torch/). This header is Torch-free so that app and other layers can hold an
// evaluator without compiling Torch.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "model/base/checkpoint_file.h"
#include "model/base/net_config.h"
#include "search/evaluator.h"

namespace veletas::model {

class VeletasNet;  // model/torch/network.h (Torch)

// On the CPU the network runs through the inference engine of model/onednn/cpu_network.h at
// NetConfig::inference_precision (weights folded at creation and at UpdateWeights, which
// say on stderr which precision was chosen); on CUDA, or with kTorch, through LibTorch.
// Holds its own copy of the network (learner and inference never share a module), in eval
// mode, on the device of NetConfig::device ("cpu", "cuda", "auto"). Evaluate encodes the
// batch on a canvas of the largest board size in it (model/base/features.h), runs one forward
// pass without autograd, and returns the softmax of the logits over the legal actions
// only (exactly zero elsewhere) and the value.
// Creation applies NetConfig::threads with torch::set_num_threads (the process-wide default),
// and Evaluate re-applies it in the calling thread when that thread's count differs.
// Thread safety: not thread-safe. One thread at a time may call Evaluate or UpdateWeights
// (search::BatchingEvaluator serialises calls); distinct evaluators may run concurrently.
struct LoadedEvaluator;

class NetworkEvaluator final : public search::Evaluator {
 public:
  // Reads `checkpoint` once (ReadCheckpoint), checks that it fits `need` and builds the
  // network from that read (its own architecture), on the device and thread count of
  // `runtime`; returns it with the checkpoint's metadata. Errors: a missing, unreadable,
  // corrupt or unfitting file is bad input naming the file (and need.source); a device
  // that is unavailable or cannot hold the network is a failure.
  static util::Result<LoadedEvaluator> Open(const std::string& checkpoint,
                                            const ModelRequirement& need, const NetConfig& runtime);
  // Open(checkpoint, spec, runtime) without the metadata.
  static util::Result<std::unique_ptr<NetworkEvaluator>> Load(const std::string& checkpoint,
                                                              const ModelSpec& spec,
                                                              const NetConfig& runtime);
  // A freshly initialised network of architecture `config` (torch::manual_seed(seed) first,
  // as CreateInitialCheckpoint does), on the device and thread count of `config`.
  static util::Result<std::unique_ptr<NetworkEvaluator>> Fresh(const NetConfig& config,
                                                               uint64_t seed);
  // Copies `net` (which the caller keeps using) onto the device of `runtime`.
  static util::Result<std::unique_ptr<NetworkEvaluator>> FromNet(const VeletasNet& net,
                                                                 const NetConfig& runtime);
  ~NetworkEvaluator() override;

  // Preconditions: as search::Evaluator (none terminal, equal lengths), sizes supported.
  void Evaluate(std::span<const rules::Position> positions,
                std::span<search::EvalOutput> out) override;

  // Replaces the weights with a copy of `net`'s (same architecture). Precondition: no
  // concurrent Evaluate.
  Status UpdateWeights(const VeletasNet& net);

  // "cpu" or "cuda:0".
  std::string DeviceName() const;
  // The precision it runs at: kFp32, kBf16, kInt8 (CPU inference engine,
  // model/onednn/cpu_network.h) or kTorch (the LibTorch path: CUDA, or inference_precision
  // kTorch); never kAuto. PrecisionName: its name ("fp32", ...).
  InferencePrecision Precision() const;
  std::string PrecisionName() const;

  // Intra-op threads for the following Evaluate calls (0: one per core), as
  // NetConfig::threads. Precondition: no concurrent Evaluate.
  void SetThreads(int threads);

  struct Impl;
  explicit NetworkEvaluator(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

// A network loaded from a checkpoint, with the checkpoint's metadata (NetworkEvaluator::Open).
struct LoadedEvaluator {
  CheckpointMeta meta;
  std::unique_ptr<NetworkEvaluator> evaluator;
};

}  // namespace veletas::model
