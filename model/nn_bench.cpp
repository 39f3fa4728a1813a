#include "model/nn_bench.h"

#include <chrono>

#include "model/features.h"
#include "model/losses.h"
#include "model/network.h"
#include "model/torch_evaluator.h"
#include "util/random.h"

namespace veletas::model {

namespace {

constexpr int kPoolSize = 1024;

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

struct NnBench::Impl {
  NnBenchOptions options;
  torch::Device device{torch::kCPU};
  VeletasNet net{nullptr};
  std::unique_ptr<TorchEvaluator> evaluator;
  std::vector<rules::Position> pool;
  size_t next = 0;

  std::span<const rules::Position> Take(int batch) {
    if (next + batch > pool.size()) next = 0;
    std::span<const rules::Position> s(pool.data() + next, batch);
    next += batch;
    return s;
  }

  // Runs `step` repeatedly (after 2 warm-up calls) for at least min_seconds and 3 calls;
  // returns items per second with `batch` items per call.
  template <class F>
  double Rate(int batch, F&& step) {
    for (int i = 0; i < 2; ++i) step();
    const auto start = std::chrono::steady_clock::now();
    long long calls = 0;
    double elapsed = 0.0;
    do {
      step();
      ++calls;
      elapsed = Seconds(start);
    } while (calls < 3 || elapsed < options.min_seconds);
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
  auto evaluator = TorchEvaluator::FromNet(impl->net, options.net);  // applies threads
  if (!evaluator) return evaluator.error_value();
  impl->evaluator = std::move(evaluator.value());
  impl->pool = SamplePositions(options.rules, options.size, kPoolSize, options.seed);
  return std::make_unique<NnBench>(std::move(impl));
}

NnBench::~NnBench() = default;

std::string NnBench::DeviceName() const { return impl_->device.str(); }
int NnBench::Threads() const { return torch::get_num_threads(); }

double NnBench::EvalRate(int batch) {
  std::vector<search::EvalOutput> out(batch);
  return impl_->Rate(batch, [&] { impl_->evaluator->Evaluate(impl_->Take(batch), out); });
}

double NnBench::TrainRate(int batch) {
  Impl& im = *impl_;
  im.net->train();
  torch::optim::SGD optimizer(
      im.net->parameters(),
      torch::optim::SGDOptions(0.01).momentum(0.9).weight_decay(1e-4).nesterov(true));
  util::Rng rng(im.options.seed + 17);
  EncodedBatch encoded;
  const double rate = im.Rate(batch, [&] {
    const auto positions = im.Take(batch);
    EncodeBatch(positions, 0, encoded);
    const int m = encoded.canvas;
    // Targets: uniform over the legal actions, random results, random claimants.
    Targets t;
    t.legal = LegalTensor(encoded, im.device);
    const torch::Tensor legal_f = t.legal.to(torch::kFloat);
    t.policy = legal_f / legal_f.sum(1, true);
    std::vector<float> values(batch);
    std::vector<int64_t> aux(static_cast<size_t>(batch) * m * m, -1);
    for (int i = 0; i < batch; ++i) {
      values[i] = rng.Below(2) ? 1.0f : -1.0f;
      const rules::Position& p = positions[i];
      for (int sq : p.AllShooters()) {
        aux[static_cast<size_t>(i) * m * m + (sq / p.Size()) * m + sq % p.Size()] =
            static_cast<int64_t>(rng.Below(3));
      }
    }
    t.value = torch::tensor(values).to(im.device);
    t.aux = torch::from_blob(aux.data(), {batch, m, m}, torch::kLong).to(im.device);
    const NetOutput out = im.net->forward(PlanesTensor(encoded, im.device));
    const Losses losses = ComputeLosses(out, t, LossWeights{});
    optimizer.zero_grad();
    losses.total.backward();
    optimizer.step();
  });
  im.net->eval();
  return rate;
}

}  // namespace veletas::model
