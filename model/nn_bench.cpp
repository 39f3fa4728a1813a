#include "model/nn_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>

#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "model/torch/autocast.h"
#include "model/torch/losses.h"
#include "model/torch/network.h"
#include "model/torch/onednn_trunk.h"
#include "util/random.h"

namespace veletas::model {

namespace {

constexpr int kPoolSize = 1024;

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

double PeakGflops(InferencePrecision precision, int cores) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  double mhz = 0.0;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos) mhz = std::max(mhz, std::atof(line.c_str() + colon + 1));
  }
  double per_cycle = precision == InferencePrecision::kInt8   ? 256
                     : precision == InferencePrecision::kBf16 ? 128
                                                              : 64;
#if defined(__x86_64__) && defined(__GNUC__)
  if (!__builtin_cpu_supports("avx512f")) per_cycle /= 2;
#endif
  return cores * mhz / 1000.0 * per_cycle;
}

struct NnBench::Impl {
  NnBenchOptions options;
  torch::Device device{torch::kCPU};
  VeletasNet net{nullptr};
  std::map<std::string, std::unique_ptr<NetworkEvaluator>> by_precision;
  NetworkEvaluator* evaluator = nullptr;  // the one measured (of by_precision)
  std::vector<rules::Position> pool;
  size_t next = 0;

  // `batch` consecutive positions of the pool (cycling), the pool grown to hold a batch
  // larger than itself (the first positions stay the same: SamplePositions is sequential).
  std::span<const rules::Position> Take(int batch) {
    if (static_cast<size_t>(batch) > pool.size()) {
      pool = SamplePositions(options.rules, options.size, batch, options.seed);
    }
    if (next + batch > pool.size()) next = 0;
    std::span<const rules::Position> s(pool.data() + next, batch);
    next += batch;
    return s;
  }

  // Waits for the work queued on a CUDA device (a training step returns before its kernels
  // finish); nothing on the CPU.
  void Synchronize() const {
    if (device.is_cuda()) torch::cuda::synchronize(device.index());
  }

  // Runs `step` repeatedly (after 2 warm-up calls) for at least min_seconds and 3 calls;
  // returns items per second with `batch` items per call, the device's queued work included.
  template <class F>
  double Rate(int batch, F&& step) {
    for (int i = 0; i < 2; ++i) step();
    Synchronize();
    const auto start = std::chrono::steady_clock::now();
    long long calls = 0;
    double elapsed = 0.0;
    do {
      step();
      ++calls;
      elapsed = Seconds(start);
    } while (calls < 3 || elapsed < options.min_seconds);
    Synchronize();
    elapsed = Seconds(start);
    return static_cast<double>(calls) * batch / elapsed;
  }
};

NnBench::NnBench(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

util::Result<std::unique_ptr<NnBench>> NnBench::Create(const NnBenchOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  auto device = SelectDevice(options.net.device);
  if (!device) return device.error_value();
  impl->device = device.value();
  torch::manual_seed(options.seed);
  impl->net = MakeNet(options.net);
  impl->net->to(impl->device);
  impl->net->eval();
  auto evaluator = NetworkEvaluator::FromNet(impl->net, options.net);  // applies threads
  if (!evaluator) return evaluator.error_value();
  impl->evaluator = evaluator.value().get();
  impl->by_precision[InferencePrecisionName(options.net.inference_precision)] =
      std::move(evaluator.value());
  impl->pool = SamplePositions(options.rules, options.size, kPoolSize, options.seed);
  return std::make_unique<NnBench>(std::move(impl));
}

NnBench::~NnBench() = default;

util::Result<std::string> NnBench::SetPrecision(const std::string& setting) {
  const std::optional<InferencePrecision> named = ParseInferencePrecision(setting);
  if (!named)
    return util::Result<std::string>::Error("unknown inference precision \"" + setting + "\"");
  std::unique_ptr<NetworkEvaluator>& held = impl_->by_precision[setting];
  if (!held) {
    NetConfig runtime = impl_->options.net;
    runtime.inference_precision = *named;
    auto evaluator = NetworkEvaluator::FromNet(impl_->net, runtime);
    if (!evaluator) return evaluator.error_value();
    held = std::move(evaluator.value());
  }
  impl_->evaluator = held.get();
  return impl_->evaluator->PrecisionName();
}

double NnBench::FlopsPerEvaluation() const {
  const NetConfig& a = impl_->options.net;
  const double area = static_cast<double>(impl_->options.size) * impl_->options.size;
  const double stem = kNumPlanes * a.channels * 9.0;
  const double trunk = 2.0 * a.blocks * a.channels * a.channels * 9.0;
  const double heads = a.channels * 2.0 * a.head_channels + a.head_channels;
  const double fc = 3.0 * a.head_channels * (a.value_hidden + 1) + a.value_hidden;
  return 2.0 * ((stem + trunk + heads) * area + fc);
}

std::string NnBench::DeviceName() const { return impl_->device.str(); }
int NnBench::Threads() const { return torch::get_num_threads(); }

double NnBench::EvalRate(int batch) {
  std::vector<search::EvalOutput> out(batch);
  return impl_->Rate(batch, [&] { impl_->evaluator->Evaluate(impl_->Take(batch), out); });
}

namespace {

// Seconds since `lap`, which moves to now.
double Lap(std::chrono::steady_clock::time_point& lap) {
  const auto now = std::chrono::steady_clock::now();
  const double s = std::chrono::duration<double>(now - lap).count();
  lap = now;
  return s;
}

// The profile's table: milliseconds per step and share of the step per phase; with `trunk`,
// the oneDNN path's primitives and C++ heads inside the forward and backward phases.
std::string FormatTrainProfile(const NnBenchStepTimes& t, const TrunkProfile* trunk, double total,
                               int steps, int batch) {
  std::string out;
  const auto row = [&](const std::string& name, double seconds) {
    out += fmt::format("  {:<50} {:9.3f} ms {:6.1f}%\n", name, 1000.0 * seconds / steps,
                       100.0 * seconds / total);
  };
  row("batch: encoding, targets, tensors", t.data);
  row("forward", t.forward);
  if (trunk != nullptr) {
    const TrunkProfile& p = *trunk;
    row("  trunk + heads' 1x1 layers (oneDNN), of which:", p.forward);
    row("    convolutions", p.conv_forward);
    row("    batch norm (+ ReLU)", p.bn_forward);
    row("    residual add + ReLU", p.residual_forward);
    row("    reorders (planes, weights, output)", p.reorders_forward);
    row("    running statistics", p.running_stats);
    row("  heads past their 1x1 layers (C++)", p.heads_forward);
    row("  value tanh, autograd (LibTorch)", t.forward - p.forward - p.heads_forward);
  }
  row("losses", t.losses);
  row("backward", t.backward);
  if (trunk != nullptr) {
    const TrunkProfile& p = *trunk;
    row("  trunk + heads' 1x1 layers (oneDNN), of which:", p.backward);
    row("    convolutions backward data", p.conv_backward_data);
    row("    convolutions backward weights", p.conv_backward_weights);
    row("    batch norm (+ ReLU) backward", p.bn_backward);
    row("    residual ReLU backward + gradient sum", p.residual_backward);
    row("    reorders (gradient, weights, weight gradients)", p.reorders_backward);
    row("  heads past their 1x1 layers (C++)", p.heads_backward);
    row("  losses' backward, autograd (LibTorch)", t.backward - p.backward - p.heads_backward);
  }
  row("optimiser step (SGD) and zero_grad", t.optimiser);
  out += fmt::format("  {:<50} {:9.3f} ms ({:.0f} samples/s while timed)\n", "step",
                     1000.0 * total / steps, batch * steps / total);
  return out;
}

}  // namespace

// One training step's state: the optimiser, the targets' random stream, the trunk.
struct NnBench::Training {
  torch::optim::SGD optimizer;
  util::Rng rng;
  EncodedBatch encoded;
  bool bf16_autocast = false;
  std::shared_ptr<OnednnTrunk> trunk;

  Training(VeletasNet& net, uint64_t seed)
      : optimizer(net->parameters(),
                  torch::optim::SGDOptions(0.01).momentum(0.9).weight_decay(1e-4).nesterov(true)),
        rng(seed) {}
};

util::Result<std::unique_ptr<NnBench::Training>> NnBench::StartTraining(const TrainPath& path) {
  Impl& im = *impl_;
  auto t = std::make_unique<Training>(im.net, im.options.seed + 17);
  t->bf16_autocast = path.bf16 && !path.onednn;
  if (path.onednn) {
    auto trunk = OnednnTrunk::Create(
        im.net->arch(), path.bf16 ? TrunkPrecision::kBf16 : TrunkPrecision::kFp32, nullptr);
    if (!trunk) return util::Error{trunk.error(), util::ErrorKind::kFailure};
    t->trunk = trunk.value();
  }
  im.net->SetTrainingTrunk(t->trunk);
  im.net->train();
  return t;
}

void NnBench::StopTraining() {
  impl_->net->eval();
  impl_->net->SetTrainingTrunk(nullptr);
}

void NnBench::TrainStep(int batch, Training& tr, NnBenchStepTimes* times) {
  Impl& im = *impl_;
  auto lap = std::chrono::steady_clock::now();
  const auto positions = im.Take(batch);
  EncodeBatch(positions, 0, tr.encoded);
  const int m = tr.encoded.canvas;
  // Targets: uniform over the legal actions, random results, random claimants.
  Targets t;
  t.legal = LegalTensor(tr.encoded, im.device);
  const torch::Tensor legal_f = t.legal.to(torch::kFloat);
  t.policy = legal_f / legal_f.sum(1, true);
  std::vector<float> values(batch);
  std::vector<int64_t> aux(static_cast<size_t>(batch) * m * m, -1);
  for (int i = 0; i < batch; ++i) {
    values[i] = tr.rng.Below(2) ? 1.0f : -1.0f;
    const rules::Position& p = positions[i];
    for (int sq : p.AllShooters()) {
      aux[static_cast<size_t>(i) * m * m + (sq / p.Size()) * m + sq % p.Size()] =
          static_cast<int64_t>(tr.rng.Below(3));
    }
  }
  t.value = torch::tensor(values).to(im.device);
  t.aux = torch::from_blob(aux.data(), {batch, m, m}, torch::kLong).to(im.device);
  const torch::Tensor planes = PlanesTensor(tr.encoded, im.device);
  if (times) times->data += Lap(lap);
  const NetOutput out = TrainingForward(im.net, planes, tr.bf16_autocast);
  if (times) times->forward += Lap(lap);
  const Losses losses = ComputeLosses(out, t, LossWeights{});
  if (times) times->losses += Lap(lap);
  tr.optimizer.zero_grad();
  losses.total.backward();
  if (times) times->backward += Lap(lap);
  tr.optimizer.step();
  if (times) times->optimiser += Lap(lap);
}

util::Result<double> NnBench::TrainRate(int batch, const TrainPath& path) {
  auto training = StartTraining(path);
  if (!training) return training.error_value();
  const double rate = impl_->Rate(batch, [&] { TrainStep(batch, *training.value(), nullptr); });
  StopTraining();
  return rate;
}

util::Result<std::string> NnBench::ProfileTrainSteps(int batch, const TrainPath& path, int steps) {
  auto training = StartTraining(path);
  if (!training) return training.error_value();
  Training& tr = *training.value();
  for (int i = 0; i < 2; ++i) TrainStep(batch, tr, nullptr);  // warm-up: primitives, caches
  NnBenchStepTimes times;
  TrunkProfile trunk;
  if (tr.trunk) tr.trunk->SetProfile(&trunk);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) TrainStep(batch, tr, &times);
  const double total = Seconds(start);
  StopTraining();
  return FormatTrainProfile(times, tr.trunk ? &trunk : nullptr, total, steps, batch);
}

}  // namespace veletas::model
