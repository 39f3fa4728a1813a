#include "model/network_evaluator.h"

#include <cstdio>
#include <mutex>

#include "model/base/features.h"
#include "model/onednn/cpu_network.h"
#include "model/torch/checkpoint.h"
#include "model/torch/fold_weights.h"
#include "model/torch/network.h"

namespace veletas::model {

struct NetworkEvaluator::Impl {
  VeletasNet net{nullptr};
  torch::Device device{torch::kCPU};
  int threads = 1;     // intra-op threads, applied in whichever thread calls Evaluate
  EncodedBatch batch;  // reused between calls
  InferencePrecision precision = InferencePrecision::kAuto;
  std::unique_ptr<CpuNetwork> cpu;  // the CPU inference engine; null: the LibTorch path

  // Builds `cpu` from `net` unless the device or the setting asks for LibTorch.
  util::Status BuildCpu();
};

namespace {

// Says on stderr which precision a network runs at, once per different choice: the line up
// to its first comma (precision and implementation), so that the agreement figures of each
// network loaded (the best and the candidate of every generation) do not repeat it.
void Announce(const std::string& line) {
  static std::mutex mutex;
  static std::string last;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string choice = line.substr(0, line.find(','));
  if (line.empty() || choice == last) return;
  last = choice;
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

util::Status NetworkEvaluator::Impl::BuildCpu() {
  cpu.reset();
  if (!device.is_cpu() || precision == InferencePrecision::kTorch) return util::Ok();
  std::string note;
  auto built = CpuNetwork::Create(FoldWeights(net), precision, &note);
  if (!built) return util::Status::Failure(built.error());
  cpu = std::move(built.value());
  Announce(note);
  return util::Ok();
}

NetworkEvaluator::NetworkEvaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NetworkEvaluator::~NetworkEvaluator() = default;

util::Result<std::unique_ptr<NetworkEvaluator>> NetworkEvaluator::FromNet(
    const VeletasNet& net, const NetConfig& runtime) {
  using R = util::Result<std::unique_ptr<NetworkEvaluator>>;
  auto device = SelectDevice(runtime.device);
  if (!device) return device.error_value();
  const int threads = ApplyThreadSetting(runtime.threads);
  try {
    auto impl = std::make_unique<Impl>();
    impl->device = device.value();
    impl->threads = threads;
    impl->net = CloneNet(net, impl->device);
    impl->net->eval();
    impl->precision = runtime.inference_precision;
    auto built = impl->BuildCpu();
    if (!built) return built.error_value();
    return std::make_unique<NetworkEvaluator>(std::move(impl));
  } catch (const std::exception& e) {
    return R::Failure(std::string("cannot place the network on ") +
                      model::DeviceName(runtime.device) + ": " + e.what());
  }
}

util::Result<LoadedEvaluator> NetworkEvaluator::Open(const std::string& checkpoint,
                                                     const ModelRequirement& need,
                                                     const NetConfig& runtime) {
  auto file = ReadCheckpoint(checkpoint);
  if (!file) return file.error_value();
  auto loaded = LoadCheckpoint(file.value(), need);
  if (!loaded) return loaded.error_value();
  auto evaluator = FromNet(loaded.value().net, runtime);
  if (!evaluator) return evaluator.error_value();
  return LoadedEvaluator{std::move(loaded.value().meta), std::move(evaluator.value())};
}

util::Result<std::unique_ptr<NetworkEvaluator>> NetworkEvaluator::Load(
    const std::string& checkpoint, const ModelSpec& spec, const NetConfig& runtime) {
  auto opened = Open(checkpoint, spec, runtime);
  if (!opened) return opened.error_value();
  return std::move(opened.value().evaluator);
}

util::Result<std::unique_ptr<NetworkEvaluator>> NetworkEvaluator::Fresh(const NetConfig& config,
                                                                        uint64_t seed) {
  try {
    torch::manual_seed(seed);
    VeletasNet net = MakeNet(config);
    net->eval();
    return FromNet(net, config);
  } catch (const std::exception& e) {
    return util::Result<std::unique_ptr<NetworkEvaluator>>::Failure(
        std::string("cannot create the network: ") + e.what());
  }
}

Status NetworkEvaluator::UpdateWeights(const VeletasNet& net) {
  if (!net->arch().SameArchitecture(impl_->net->arch())) {
    return Status::Error("UpdateWeights: the network has a different architecture");
  }
  try {
    CopyWeights(net, impl_->net);
    return impl_->BuildCpu();
  } catch (const std::exception& e) {
    return Status::Failure(std::string("UpdateWeights: ") + e.what());
  }
}

std::string NetworkEvaluator::DeviceName() const { return impl_->device.str(); }

InferencePrecision NetworkEvaluator::Precision() const {
  return impl_->cpu ? AsInferencePrecision(impl_->cpu->precision()) : InferencePrecision::kTorch;
}

std::string NetworkEvaluator::PrecisionName() const { return InferencePrecisionName(Precision()); }

void NetworkEvaluator::SetThreads(int threads) { impl_->threads = ApplyThreadSetting(threads); }

void NetworkEvaluator::Evaluate(std::span<const rules::Position> positions,
                                std::span<search::EvalOutput> out) {
  if (positions.empty()) return;
  // OpenMP's thread count is per calling thread (e.g. a batching front end's worker).
  if (torch::get_num_threads() != impl_->threads) torch::set_num_threads(impl_->threads);
  if (impl_->cpu) return impl_->cpu->Evaluate(positions, out);
  EncodedBatch& b = impl_->batch;
  EncodeBatch(positions, 0, b);
  const int m = b.canvas;
  const int actions = CanvasActions(m);
  torch::Tensor policy, value;
  {
    c10::InferenceMode guard;
    torch::Tensor input =
        torch::from_blob(b.planes.data(), {b.batch, kNumPlanes, m, m}, torch::kFloat);
    if (!impl_->device.is_cpu()) input = input.to(impl_->device);
    NetOutput o = impl_->net->forward(input);
    policy = o.policy.to(torch::kCPU).contiguous();
    value = o.value.to(torch::kCPU).contiguous();
  }
  const float* logits_all = policy.data_ptr<float>();
  const float* values = value.data_ptr<float>();
  for (int i = 0; i < b.batch; ++i) {
    DecodeOutput(b, i, positions[i].Size(), logits_all + static_cast<size_t>(i) * actions,
                 values[i], out[i]);
  }
}

}  // namespace veletas::model
