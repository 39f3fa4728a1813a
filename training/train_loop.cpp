#include "training/train_loop.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>

#include "model/torch/autocast.h"
#include "model/torch/checkpoint.h"
#include "model/torch/losses.h"
#include "model/torch/network.h"
#include "model/torch/onednn_trunk.h"
#include "training/batch_loader.h"
#include "training/lr_schedule.h"
#include "training/metrics.h"
#include "training/train_precision.h"
#include "util/clock.h"
#include "util/progress_line.h"

namespace veletas::training {
namespace {

std::unique_ptr<torch::optim::Optimizer> MakeOptimizer(const TrainingConfig& c,
                                                       const model::VeletasNet& net) {
  if (c.optimizer == Optimizer::kAdamW) {
    return std::make_unique<torch::optim::AdamW>(net->parameters(),
                                                 torch::optim::AdamWOptions(c.learning_rate)
                                                     .betas(std::make_tuple(c.momentum, 0.999))
                                                     .eps(1e-8)
                                                     .weight_decay(c.weight_decay));
  }
  return std::make_unique<torch::optim::SGD>(net->parameters(),
                                             torch::optim::SGDOptions(c.learning_rate)
                                                 .momentum(c.momentum)
                                                 .nesterov(c.nesterov)
                                                 .weight_decay(c.weight_decay));
}

const char* OptimizerName(Optimizer o) { return o == Optimizer::kAdamW ? "adamw" : "sgd"; }

// The batch's arrays as tensors on `device` (no copy on the CPU: the tensors borrow the
// batch's storage, which must outlive them).
struct BatchTensors {
  torch::Tensor planes;
  model::Targets targets;
  torch::Tensor phase;  // [B] int64 GamePhase
};

BatchTensors ToTensors(TrainingBatch& b, const torch::Device& device) {
  const int64_t n = b.batch, m = b.canvas, a = model::CanvasActions(b.canvas);
  BatchTensors t;
  t.planes = torch::from_blob(b.planes.data(), {n, model::kNumPlanes, m, m}, torch::kFloat);
  t.targets.policy = torch::from_blob(b.policy.data(), {n, a}, torch::kFloat);
  t.targets.legal = torch::from_blob(b.legal.data(), {n, a}, torch::kBool);
  t.targets.value = torch::from_blob(b.value.data(), {n}, torch::kFloat);
  t.targets.aux = torch::from_blob(b.aux.data(), {n, m, m}, torch::kLong);
  t.phase = torch::from_blob(b.phase.data(), {n}, torch::kUInt8).to(device, torch::kLong);
  if (!device.is_cpu()) {
    t.planes = t.planes.to(device);
    t.targets.policy = t.targets.policy.to(device);
    t.targets.legal = t.targets.legal.to(device);
    t.targets.value = t.targets.value.to(device);
    t.targets.aux = t.targets.aux.to(device);
  }
  return t;
}

// Sums of the per-step statistics, kept on the device (read once per report). kPhaseSq + k:
// the squared value errors of the samples of GamePhase k; kPhaseCount + k: their number.
enum Stat {
  kPolicy,
  kValue,
  kAux,
  kEntropy,
  kTargetEntropy,
  kAccuracy,
  kPhaseSq,
  kPhaseCount = kPhaseSq + kNumGamePhases,
  kNumStats = kPhaseCount + kNumGamePhases
};

struct Accumulator {
  torch::Tensor sums;
  int64_t steps = 0;
  util::SteadyClock::time_point since = util::SteadyClock::now();
  void Reset(const torch::Device& device) {
    sums = torch::zeros({kNumStats}, torch::TensorOptions(torch::kDouble).device(device));
    steps = 0;
    since = util::SteadyClock::now();
  }
  std::vector<double> Means() const {
    const torch::Tensor cpu = sums.to(torch::kCPU);
    std::vector<double> m(kNumStats);
    for (int i = 0; i < kNumStats; ++i) {
      m[i] = steps > 0 ? cpu[i].item<double>() / static_cast<double>(steps) : 0.0;
    }
    return m;
  }
};

// The step's statistics as a [kNumStats] double tensor.
torch::Tensor StepStats(const model::NetOutput& out, const model::Targets& t,
                        const torch::Tensor& phase, const model::Losses& losses) {
  const torch::Tensor& log_p = losses.policy_log_p;
  const torch::Tensor entropy = -(log_p.exp() * log_p).sum(1).mean();
  const torch::Tensor accuracy = (out.value * t.value).gt(0).to(torch::kFloat).mean();
  const torch::Tensor squared = (out.value - t.value).square().to(torch::kDouble);
  const torch::Tensor one_hot = torch::one_hot(phase, kNumGamePhases).to(torch::kDouble);
  return torch::cat({torch::stack({losses.policy, losses.value, losses.aux, entropy,
                                   model::PolicyTargetEntropy(t.policy), accuracy})
                         .to(torch::kDouble),
                     squared.matmul(one_hot), one_hot.sum(0)});
}

// The value loss of each phase over the steps of `m` (Accumulator::Means), -1 where no
// sample of the phase was seen.
void SetPhaseLosses(const std::vector<double>& m, MetricsLine& line) {
  double* phases[kNumGamePhases] = {&line.loss_value_setup, &line.loss_value_early,
                                    &line.loss_value_late};
  for (int k = 0; k < kNumGamePhases; ++k) {
    *phases[k] = m[kPhaseCount + k] > 0 ? m[kPhaseSq + k] / m[kPhaseCount + k] : -1.0;
  }
}

double L2Term(const model::VeletasNet& net, double weight_decay) {
  torch::NoGradGuard no_grad;
  // Summed on the device and read once (one synchronisation, not one per tensor).
  std::vector<torch::Tensor> sums;
  for (const torch::Tensor& p : net->parameters()) {
    sums.push_back(p.square().sum().to(torch::kDouble));
  }
  if (sums.empty()) return 0.0;
  return 0.5 * weight_decay * torch::stack(sums).sum().item<double>();
}

model::CheckpointMeta Meta(const LoopSetup& s) {
  model::CheckpointMeta meta;
  meta.rules = s.request->spec.rules;
  meta.size = s.request->spec.size;
  meta.generation = s.plan->generation;
  meta.training_steps = s.plan->start_step + s.plan->steps_done;
  meta.extra[kExtraData] = DataStateToJson(*s.data);
  meta.extra[kExtraCall] = CallPlanToJson(*s.plan);
  return meta;
}

}  // namespace

TrainResult Failure(TrainStatus status, std::string error) {
  TrainResult r;
  r.status = status;
  r.error = std::move(error);
  return r;
}

int64_t FileSize(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<int64_t>(size);
}

namespace {

// One RunTrainingLoop call, step by step.
class Loop {
 public:
  Loop(const LoopSetup& s, TrainStats& stats)
      : s_(s), r_(*s.request), c_(r_.config), plan_(*s.plan), data_(*s.data), stats_(stats) {}

  // Prepare, the steps, the output; exceptions (Torch's) become failures.
  TrainResult Run();

 private:
  void Note(const std::string& message) const {
    if (r_.log) r_.log(message);
  }
  // Note, once per process (the engine's choice, not once per generation).
  void NoteOnce(const std::string& message) const {
    static std::mutex mutex;
    static std::set<std::string> said;
    const std::lock_guard<std::mutex> lock(mutex);
    if (said.insert(message).second) Note(message);
  }
  // The engine and precision of the steps (ChooseTrainEngine), with their notes; a oneDNN
  // trunk on net_ where it runs.
  void ChooseEngine();
  // The device, the network and the optimiser, loaded from setup.load_from; a fresh call
  // records its plan at once in the training-state file.
  TrainResult Prepare();
  // Steps from plan.steps_done to plan.steps: metrics lines, training-state files, progress.
  TrainResult Steps();
  // One optimiser step on `batch` at learning rate `lr`; its statistics go to both
  // accumulators.
  void Step(TrainingBatch& batch, double lr);
  // The metrics line of the steps since the last one (ends the call if the loss diverged).
  TrainResult WriteMetrics(int64_t global, double lr);
  // The training-state file after `done` steps.
  TrainResult SaveState(int64_t done);
  // Progress after `done` steps (global step `global`).
  void Report(int64_t done, int64_t global, double lr, bool metrics);
  // The loop's speed (after its first two steps) and the output checkpoint.
  TrainResult Finish(const BatchLoader& loader);

  const LoopSetup& s_;
  const TrainRequest& r_;
  const TrainingConfig& c_;
  CallPlan& plan_;
  DataState& data_;
  TrainStats& stats_;
  torch::Device device_{torch::kCPU};
  model::VeletasNet net_{nullptr};
  bool bf16_ = false;  // the forward pass under autocast to bf16 (torch engine, bf16)
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  Accumulator window_acc_, report_acc_;
  int64_t first_step_ = 0;  // plan.steps_done moves at checkpoints
  int64_t remaining_ = 0;
  util::SteadyClock::time_point loop_start_;
  // The speed is measured after the first two steps (warm-up).
  util::SteadyClock::time_point warm_start_;
  int64_t warm_steps_ = 0;
  double warm_wait_ = 0;
};

TrainResult Loop::Run() {
  try {
    if (TrainResult prepared = Prepare(); !prepared.ok()) return prepared;
    return Steps();
  } catch (const std::exception& e) {
    return Failure(TrainStatus::kFailed, std::string("training failed: ") + e.what());
  }
}

TrainResult Loop::Prepare() {
  auto device = model::SelectDevice(r_.device);
  if (!device) return Failure(TrainStatus::kBadInput, device.error());
  device_ = device.value();
  model::ApplyThreadSetting(c_.threads);
  net_ = model::MakeNet(r_.spec.arch);
  net_->to(device_);
  ChooseEngine();
  optimizer_ = MakeOptimizer(c_, net_);
  const model::CheckpointFile& from = *s_.load_from;
  const bool same_run = s_.resuming || r_.restore_input_optimizer;
  const bool restore =
      s_.resuming || (same_run && from.meta.optimizer == OptimizerName(c_.optimizer));
  if (!restore && !from.meta.optimizer.empty()) {
    Note(from.path + " holds " + from.meta.optimizer + " optimiser state; starting a fresh " +
         OptimizerName(c_.optimizer) + " optimiser" +
         (same_run ? "" : " (weights only: not a checkpoint of this run)"));
  }
  auto loaded =
      model::LoadCheckpointInto(from, r_.spec, net_, restore ? optimizer_.get() : nullptr);
  if (!loaded) return Failure(TrainStatus::kBadInput, loaded.error());
  net_->train();
  // A fresh call records its plan at once (step 0), so that a kill at any later moment
  // resumes this plan: the same window, steps and metrics offset.
  if (!s_.resuming && plan_.steps > 0) {
    if (auto saved = model::SaveCheckpoint(s_.state_path, net_, optimizer_.get(), Meta(s_));
        !saved) {
      return Failure(TrainStatus::kFailed, saved.error());
    }
  }
  return TrainResult{};
}

void Loop::ChooseEngine() {
  const EngineChoice choice =
      ChooseTrainEngine(c_.engine, c_.precision, device_.is_cuda(), ThisCpu());
  if (!choice.note.empty()) NoteOnce(choice.note);
  stats_.engine = TrainEngineName(choice.engine);
  stats_.precision = TrainPrecisionName(choice.precision);
  bf16_ = choice.engine == TrainEngine::kTorch && choice.precision == TrainPrecision::kBf16;
  if (choice.engine != TrainEngine::kOnednn) return;
  auto trunk = model::OnednnTrunk::Create(
      r_.spec.arch,
      choice.precision == TrainPrecision::kBf16 ? model::TrunkPrecision::kBf16
                                                : model::TrunkPrecision::kFp32,
      [this](const std::string& m) { NoteOnce("training.engine onednn: " + m); });
  if (trunk) {
    net_->SetTrainingTrunk(trunk.value());
    return;
  }
  NoteOnce(trunk.error() + "; training with LibTorch's ops in fp32");
  stats_.engine = TrainEngineName(TrainEngine::kTorch);
  stats_.precision = TrainPrecisionName(TrainPrecision::kFp32);
}

void Loop::Step(TrainingBatch& batch, double lr) {
  for (auto& group : optimizer_->param_groups()) group.options().set_lr(lr);
  const model::LossWeights weights{1.0, c_.value_weight, c_.aux_weight, c_.value_cross_entropy};
  const BatchTensors t = ToTensors(batch, device_);
  const model::NetOutput out = model::TrainingForward(net_, t.planes, bf16_);
  const model::Losses losses = model::ComputeLosses(out, t.targets, weights);
  optimizer_->zero_grad();
  losses.total.backward();
  optimizer_->step();
  torch::NoGradGuard no_grad;
  const torch::Tensor step_stats = StepStats(out, t.targets, t.phase, losses);
  window_acc_.sums += step_stats;
  report_acc_.sums += step_stats;
}

TrainResult Loop::Steps() {
  first_step_ = plan_.steps_done;
  remaining_ = plan_.steps - first_step_;
  BatchLoader loader(*s_.window, plan_.seed, plan_.first_batch + first_step_, remaining_,
                     c_.batch_size, c_.root_value_weight, c_.prefetch_batches);
  window_acc_.Reset(device_);
  report_acc_.Reset(device_);
  loop_start_ = util::SteadyClock::now();
  warm_start_ = loop_start_;
  for (int64_t step = first_step_; step < plan_.steps; ++step) {
    const int64_t global = plan_.start_step + step;
    const double lr = LearningRate(c_, global);
    std::unique_ptr<TrainingBatch> batch = loader.Next();
    Step(*batch, lr);
    loader.Recycle(std::move(batch));
    ++window_acc_.steps;
    ++report_acc_.steps;
    const int64_t done = step + 1;
    data_.batches_drawn = plan_.first_batch + done;
    data_.samples_consumed += c_.batch_size;
    if (done - first_step_ == std::min<int64_t>(2, remaining_)) {
      warm_start_ = util::SteadyClock::now();
      warm_steps_ = done;
      warm_wait_ = loader.WaitSeconds();
    }
    if (r_.abort_after_steps >= 0 && done >= r_.abort_after_steps) {
      return Failure(TrainStatus::kAborted, "aborted after step " + std::to_string(done));
    }
    const bool last = done == plan_.steps;
    const bool checkpoint = !last && done % c_.checkpoint_every == 0;
    const bool metrics = last || checkpoint || (global + 1) % c_.metrics_every == 0;
    if (metrics) {
      if (TrainResult written = WriteMetrics(global, lr); !written.ok()) return written;
    }
    if (checkpoint) {
      if (TrainResult saved = SaveState(done); !saved.ok()) return saved;
    }
    if (r_.progress &&
        (metrics || last || util::SecondsSince(report_acc_.since) >= r_.progress_interval)) {
      Report(done, global, lr, metrics);
    }
  }
  return Finish(loader);
}

TrainResult Loop::WriteMetrics(int64_t global, double lr) {
  const std::vector<double> m = window_acc_.Means();
  MetricsLine line;
  line.generation = plan_.generation;
  line.step = global + 1;
  line.steps = window_acc_.steps;
  line.loss_policy = m[kPolicy];
  line.loss_value = m[kValue];
  line.loss_aux = m[kAux];
  line.loss_l2 = L2Term(net_, c_.weight_decay);
  line.loss_total =
      m[kPolicy] + c_.value_weight * m[kValue] + c_.aux_weight * m[kAux] + line.loss_l2;
  line.policy_entropy = m[kEntropy];
  line.policy_target_entropy = m[kTargetEntropy];
  line.value_accuracy = m[kAccuracy];
  SetPhaseLosses(m, line);
  line.learning_rate = lr;
  line.samples_per_second = static_cast<double>(window_acc_.steps * c_.batch_size) /
                            util::SecondsSince(window_acc_.since);
  line.window_samples = s_.window->Size();
  line.time = static_cast<double>(std::time(nullptr));
  if (!std::isfinite(line.loss_total)) {
    // Diverged (e.g. a learning rate too high): keep the last good training state.
    return Failure(TrainStatus::kFailed,
                   "the loss is not finite at step " + std::to_string(global + 1) +
                       " (learning rate " + std::to_string(lr) +
                       "); nothing written after the last training-state file");
  }
  if (util::Status appended = AppendMetrics(s_.metrics_path, line); !appended.ok()) {
    return Failure(TrainStatus::kFailed, appended.error());
  }
  stats_.loss_policy = line.loss_policy;
  stats_.loss_value = line.loss_value;
  stats_.loss_aux = line.loss_aux;
  stats_.loss_total = line.loss_total;
  stats_.loss_l2 = line.loss_l2;
  window_acc_.Reset(device_);
  return TrainResult{};
}

TrainResult Loop::SaveState(int64_t done) {
  plan_.steps_done = done;
  plan_.metrics_offset = FileSize(s_.metrics_path);
  if (auto saved = model::SaveCheckpoint(s_.state_path, net_, optimizer_.get(), Meta(s_)); !saved) {
    return Failure(TrainStatus::kFailed, saved.error());
  }
  return TrainResult{};
}

void Loop::Report(int64_t done, int64_t global, double lr, bool metrics) {
  const std::vector<double> m = report_acc_.Means();
  TrainProgress p;
  p.generation = plan_.generation;
  p.step = done;
  p.steps = plan_.steps;
  p.global_step = global + 1;
  p.loss_policy = m[kPolicy];
  p.loss_value = m[kValue];
  p.loss_aux = m[kAux];
  p.loss_total = m[kPolicy] + c_.value_weight * m[kValue] + c_.aux_weight * m[kAux];
  p.learning_rate = lr;
  p.samples_per_second = static_cast<double>(report_acc_.steps * c_.batch_size) /
                         util::SecondsSince(report_acc_.since);
  p.eta_seconds = util::EtaSeconds(static_cast<double>(done - first_step_),
                                   static_cast<double>(plan_.steps - first_step_),
                                   util::SecondsSince(loop_start_));
  p.metrics_line = metrics;
  r_.progress(p);
  report_acc_.Reset(device_);
}

TrainResult Loop::Finish(const BatchLoader& loader) {
  const double warm_seconds = util::SecondsSince(warm_start_);
  const int64_t timed = plan_.steps - warm_steps_;
  if (timed > 0 && warm_seconds > 0) {
    stats_.loop_samples_per_second = static_cast<double>(timed * c_.batch_size) / warm_seconds;
  }
  stats_.loader_wait_seconds = loader.WaitSeconds() - warm_wait_;
  plan_.steps_done = plan_.steps;
  plan_.complete = true;
  plan_.metrics_offset = FileSize(s_.metrics_path);
  if (auto saved = model::SaveCheckpoint(r_.output_checkpoint, net_, optimizer_.get(), Meta(s_));
      !saved) {
    return Failure(TrainStatus::kFailed, saved.error());
  }
  return TrainResult{};
}

}  // namespace

TrainResult RunTrainingLoop(const LoopSetup& s, TrainStats& stats) {
  Loop loop(s, stats);
  return loop.Run();
}

}  // namespace veletas::training
