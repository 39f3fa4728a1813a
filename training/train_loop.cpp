#include "training/train_loop.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <memory>

#include "model/checkpoint.h"
#include "model/losses.h"
#include "model/network.h"
#include "training/batch_loader.h"
#include "training/lr_schedule.h"
#include "training/metrics.h"
#include "util/clock.h"

namespace veletas::training {
namespace {

using Clock = std::chrono::steady_clock;

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
  Clock::time_point since = Clock::now();
  void Reset(const torch::Device& device) {
    sums = torch::zeros({kNumStats}, torch::TensorOptions(torch::kDouble).device(device));
    steps = 0;
    since = Clock::now();
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

TrainResult RunTrainingLoop(const LoopSetup& s, TrainStats& stats) {
  const TrainRequest& r = *s.request;
  const TrainingConfig& c = r.config;
  CallPlan& plan = *s.plan;
  DataState& data = *s.data;
  auto note = [&](const std::string& message) {
    if (r.log) r.log(message);
  };
  try {
    auto device = model::SelectDevice(r.device);
    if (!device) return Failure(TrainStatus::kBadInput, device.error());
    model::ApplyThreadSetting(c.threads);
    model::VeletasNet net = model::MakeNet(r.spec.arch);
    net->to(device.value());
    std::unique_ptr<torch::optim::Optimizer> optimizer = MakeOptimizer(c, net);
    const model::CheckpointFile& from = *s.load_from;
    const bool restore = s.resuming || from.meta.optimizer == OptimizerName(c.optimizer);
    if (!restore && !from.meta.optimizer.empty()) {
      note(from.path + " holds " + from.meta.optimizer + " optimiser state; starting a fresh " +
           OptimizerName(c.optimizer) + " optimiser");
    }
    auto loaded = model::LoadCheckpointInto(from, r.spec, net, restore ? optimizer.get() : nullptr);
    if (!loaded) return Failure(TrainStatus::kBadInput, loaded.error());
    net->train();
    // A fresh call records its plan at once (step 0), so that a kill at any later moment
    // resumes this plan: the same window, steps and metrics offset.
    if (!s.resuming && plan.steps > 0) {
      if (auto saved = model::SaveCheckpoint(s.state_path, net, optimizer.get(), Meta(s)); !saved) {
        return Failure(TrainStatus::kFailed, saved.error());
      }
    }

    const model::LossWeights weights{1.0, c.value_weight, c.aux_weight};
    const int64_t first_step = plan.steps_done;  // plan.steps_done moves at checkpoints
    const int64_t remaining = plan.steps - first_step;
    BatchLoader loader(*s.window, plan.seed, plan.first_batch + first_step, remaining, c.batch_size,
                       c.root_value_weight, c.prefetch_batches);
    Accumulator window_acc, report_acc;
    window_acc.Reset(device.value());
    report_acc.Reset(device.value());
    const auto loop_start = Clock::now();
    Clock::time_point warm_start = loop_start;
    int64_t warm_steps = 0;
    double warm_wait = 0;

    for (int64_t step = first_step; step < plan.steps; ++step) {
      const int64_t global = plan.start_step + step;
      const double lr = LearningRate(c, global);
      for (auto& group : optimizer->param_groups()) group.options().set_lr(lr);
      std::unique_ptr<TrainingBatch> batch = loader.Next();
      {
        const BatchTensors t = ToTensors(*batch, device.value());
        const model::NetOutput out = net->forward(t.planes);
        const model::Losses losses = model::ComputeLosses(out, t.targets, weights);
        optimizer->zero_grad();
        losses.total.backward();
        optimizer->step();
        torch::NoGradGuard no_grad;
        const torch::Tensor step_stats = StepStats(out, t.targets, t.phase, losses);
        window_acc.sums += step_stats;
        report_acc.sums += step_stats;
      }
      loader.Recycle(std::move(batch));
      ++window_acc.steps;
      ++report_acc.steps;
      const int64_t done = step + 1;
      data.batches_drawn = plan.first_batch + done;
      data.samples_consumed += c.batch_size;
      if (done - first_step == std::min<int64_t>(2, remaining)) {
        warm_start = Clock::now();
        warm_steps = done;
        warm_wait = loader.WaitSeconds();
      }
      if (r.abort_after_steps >= 0 && done >= r.abort_after_steps) {
        return Failure(TrainStatus::kAborted, "aborted after step " + std::to_string(done));
      }

      const bool last = done == plan.steps;
      const bool checkpoint = !last && done % c.checkpoint_every == 0;
      const bool metrics = last || checkpoint || (global + 1) % c.metrics_every == 0;
      if (metrics) {
        const std::vector<double> m = window_acc.Means();
        MetricsLine line;
        line.generation = plan.generation;
        line.step = global + 1;
        line.steps = window_acc.steps;
        line.loss_policy = m[kPolicy];
        line.loss_value = m[kValue];
        line.loss_aux = m[kAux];
        line.loss_l2 = L2Term(net, c.weight_decay);
        line.loss_total =
            m[kPolicy] + c.value_weight * m[kValue] + c.aux_weight * m[kAux] + line.loss_l2;
        line.policy_entropy = m[kEntropy];
        line.policy_target_entropy = m[kTargetEntropy];
        line.value_accuracy = m[kAccuracy];
        SetPhaseLosses(m, line);
        line.learning_rate = lr;
        line.samples_per_second = static_cast<double>(window_acc.steps * c.batch_size) /
                                  util::SecondsSince(window_acc.since);
        line.window_samples = s.window->Size();
        line.time = static_cast<double>(std::time(nullptr));
        if (!std::isfinite(line.loss_total)) {
          // Diverged (e.g. a learning rate too high): keep the last good training state.
          return Failure(TrainStatus::kFailed,
                         "the loss is not finite at step " + std::to_string(global + 1) +
                             " (learning rate " + std::to_string(lr) +
                             "); nothing written after the last training-state file");
        }
        if (util::Status appended = AppendMetrics(s.metrics_path, line); !appended.ok()) {
          return Failure(TrainStatus::kFailed, appended.error());
        }
        stats.loss_policy = line.loss_policy;
        stats.loss_value = line.loss_value;
        stats.loss_aux = line.loss_aux;
        stats.loss_total = line.loss_total;
        stats.loss_l2 = line.loss_l2;
        window_acc.Reset(device.value());
      }
      if (checkpoint) {
        plan.steps_done = done;
        plan.metrics_offset = FileSize(s.metrics_path);
        if (auto saved = model::SaveCheckpoint(s.state_path, net, optimizer.get(), Meta(s));
            !saved) {
          return Failure(TrainStatus::kFailed, saved.error());
        }
      }
      if (r.progress &&
          (metrics || last || util::SecondsSince(report_acc.since) >= r.progress_interval)) {
        const std::vector<double> m = report_acc.Means();
        TrainProgress p;
        p.generation = plan.generation;
        p.step = done;
        p.steps = plan.steps;
        p.global_step = global + 1;
        p.loss_policy = m[kPolicy];
        p.loss_value = m[kValue];
        p.loss_aux = m[kAux];
        p.loss_total = m[kPolicy] + c.value_weight * m[kValue] + c.aux_weight * m[kAux];
        p.learning_rate = lr;
        p.samples_per_second = static_cast<double>(report_acc.steps * c.batch_size) /
                               util::SecondsSince(report_acc.since);
        const double per_step =
            util::SecondsSince(loop_start) / static_cast<double>(done - first_step);
        p.eta_seconds = per_step * static_cast<double>(plan.steps - done);
        p.metrics_line = metrics;
        r.progress(p);
        report_acc.Reset(device.value());
      }
    }
    const double warm_seconds = util::SecondsSince(warm_start);
    const int64_t timed = plan.steps - warm_steps;
    if (timed > 0 && warm_seconds > 0) {
      stats.loop_samples_per_second = static_cast<double>(timed * c.batch_size) / warm_seconds;
    }
    stats.loader_wait_seconds = loader.WaitSeconds() - warm_wait;

    plan.steps_done = plan.steps;
    plan.complete = true;
    plan.metrics_offset = FileSize(s.metrics_path);
    if (auto saved = model::SaveCheckpoint(r.output_checkpoint, net, optimizer.get(), Meta(s));
        !saved) {
      return Failure(TrainStatus::kFailed, saved.error());
    }
    return TrainResult{};
  } catch (const std::exception& e) {
    return Failure(TrainStatus::kFailed, std::string("training failed: ") + e.what());
  }
}

}  // namespace veletas::training
