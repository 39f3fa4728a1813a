// TrainGeneration: planning, resume and the output (the training loop is in train_loop.cpp).
#include "training/trainer.h"

#include <chrono>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "model/checkpoint_file.h"
#include "training/call_plan.h"
#include "training/replay_window.h"
#include "training/train_loop.h"
#include "util/atomic_file.h"
#include "util/run_dir.h"

namespace veletas::training {
namespace fs = std::filesystem;

std::string MetricsPath(const TrainRequest& r) {
  if (!r.metrics_path.empty()) return r.metrics_path;
  return (fs::absolute(r.output_checkpoint).parent_path() / "metrics.jsonl").string();
}

std::string TrainingStatePath(const std::string& output_checkpoint) {
  return output_checkpoint + ".state";
}

namespace {

// The input's fingerprint: its content checksum in hex.
std::string Fingerprint(const model::CheckpointFile& file) {
  return fmt::format("{:016x}", file.checksum);
}

// The plan and data state stored in a training checkpoint's metadata.
struct StoredTraining {
  CallPlan plan;
  DataState data;
};

util::Result<StoredTraining> ReadStoredTraining(const model::CheckpointMeta& meta,
                                                const std::string& path) {
  using R = util::Result<StoredTraining>;
  const auto call = meta.extra.find(kExtraCall);
  const auto data = meta.extra.find(kExtraData);
  if (call == meta.extra.end() || data == meta.extra.end()) {
    return R::Error(path + ": no training state in the metadata");
  }
  auto plan = CallPlanFromJson(call->second, path);
  if (!plan) return plan.error_value();
  auto state = DataStateFromJson(data->second, path);
  if (!state) return state.error_value();
  return StoredTraining{plan.value(), state.value()};
}

void FillFromPlan(const CallPlan& plan, const DataState& data, TrainStats& s) {
  s.generation = plan.generation;
  s.steps = plan.steps;
  s.global_steps = plan.start_step + plan.steps_done;
  s.new_files = plan.new_files;
  s.new_samples = plan.new_samples;
  s.total_samples = data.total_samples;
  s.window_samples = plan.window_samples;
}

}  // namespace

TrainResult TrainGeneration(const TrainRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  auto note = [&](const std::string& message) {
    if (r.log) r.log(message);
  };
  if (util::Status valid = r.config.Validate(); !valid) {
    return Failure(TrainStatus::kBadInput, "training config: " + valid.error());
  }
  if (r.input_checkpoint.empty() || r.output_checkpoint.empty()) {
    return Failure(TrainStatus::kBadInput, "an input and an output checkpoint are needed");
  }
  {
    std::error_code ec;
    if (fs::exists(r.output_checkpoint, ec) &&
        fs::equivalent(r.input_checkpoint, r.output_checkpoint, ec)) {
      return Failure(TrainStatus::kBadInput,
                     r.output_checkpoint + ": the output checkpoint must differ from the input");
    }
  }
  // The input is read once: its metadata, fingerprint and (unless resuming) weights.
  auto input = model::ReadCheckpoint(r.input_checkpoint);
  if (!input) return Failure(TrainStatus::kBadInput, input.error());
  if (util::Status fits = model::CheckFits(input.value(), r.spec); !fits) {
    return Failure(TrainStatus::kBadInput, fits.error());
  }
  const model::CheckpointMeta& input_meta = input.value().meta;
  const std::string fingerprint = Fingerprint(input.value());
  const int64_t generation = r.generation >= 0 ? r.generation : input_meta.generation + 1;
  const fs::path out_dir = fs::absolute(r.output_checkpoint).parent_path();
  const std::string metrics_path = MetricsPath(r);
  const std::string state_path = TrainingStatePath(r.output_checkpoint);
  auto matches = [&](const CallPlan& p) {
    return p.input_fingerprint == fingerprint && p.generation == generation;
  };

  // One writer per output directory, as a pipeline's run has; once the lock is held, every
  // temporary file found there is a killed writer's.
  util::DirectoryLock lock;
  const auto removed = util::LockAndClean(out_dir.string(), lock, out_dir.string(), false);
  if (!removed) return Failure(TrainStatus::kFailed, removed.error());
  for (const std::string& p : removed.value()) {
    note(p + ": removed (incomplete file of an earlier run)");
  }

  TrainResult result;
  TrainStats& stats = result.stats;
  // Already done: the output exists for this input and generation.
  if (fs::exists(r.output_checkpoint)) {
    auto meta = model::ReadCheckpointMeta(r.output_checkpoint);
    if (meta) {
      auto stored = ReadStoredTraining(meta.value(), r.output_checkpoint);
      if (stored && stored.value().plan.complete && matches(stored.value().plan)) {
        FillFromPlan(stored.value().plan, stored.value().data, stats);
        stats.already_done = true;
        std::error_code ec;
        fs::remove(state_path, ec);  // left behind by a kill right after the output was written
        note(r.output_checkpoint + ": already trained from this input; nothing to do");
        return result;
      }
    }
  }

  // Resume from the training-state file (read once: its plan and its weights), or plan a
  // new call.
  CallPlan plan;
  DataState data;
  bool resume = false;
  std::optional<model::CheckpointFile> state_file;
  if (fs::exists(state_path)) {
    auto file = model::ReadCheckpoint(state_path);
    auto stored = file ? ReadStoredTraining(file.value().meta, state_path) : file.error_value();
    if (stored && matches(stored.value().plan)) {
      plan = stored.value().plan;
      data = stored.value().data;
      state_file = std::move(file.value());
      resume = true;
      note("resuming from " + state_path + " at step " + std::to_string(plan.steps_done) + " of " +
           std::to_string(plan.steps));
    } else {
      note("ignoring " + state_path + " (" +
           (stored ? std::string("another input or generation") : stored.error()) + ")");
    }
  }
  std::map<std::string, data::SampleFile> loaded;
  if (!resume) {
    if (const auto it = input_meta.extra.find(kExtraData); it != input_meta.extra.end()) {
      auto parsed = DataStateFromJson(it->second, r.input_checkpoint);
      if (!parsed) return Failure(TrainStatus::kBadInput, parsed.error());
      data = parsed.value();
    }
    auto listed = ListSampleFiles(r.data);
    if (!listed) return Failure(TrainStatus::kBadInput, listed.error());
    auto ingest = IngestFiles(data, listed.value(), r.spec.rules, r.spec.size, r.config.window_max);
    if (!ingest) return Failure(TrainStatus::kBadInput, ingest.error());
    for (const std::string& s : ingest.value().skipped) {
      note("skipping " + s);
      stats.skipped.push_back(s);
    }
    plan.input_fingerprint = fingerprint;
    plan.generation = generation;
    plan.start_step = input_meta.training_steps;
    plan.steps = PlanSteps(r.config, ingest.value().new_samples, r.steps, data);
    plan.first_batch = data.batches_drawn;
    plan.seed = r.config.seed;
    plan.metrics_offset = FileSize(metrics_path);
    plan.new_files = ingest.value().new_files;
    plan.new_samples = ingest.value().new_samples;
    plan.window_samples = WindowSize(r.config, data.total_samples);
    loaded = std::move(ingest.value().loaded);
  }
  std::vector<std::string> window_skipped;
  auto window = ReplayWindow::Load(data, plan.window_samples, r.spec.rules, r.spec.size,
                                   std::move(loaded), window_skipped);
  if (!window) return Failure(TrainStatus::kBadInput, window.error());
  for (const std::string& s : window_skipped) {
    note("skipping " + s);
    stats.skipped.push_back(s);
  }
  if (window.value().Size() == 0) {
    std::string where;
    for (const std::string& d : r.data) where += (where.empty() ? "" : ", ") + d;
    result.status = TrainStatus::kBadInput;
    result.error = "no usable sample data in " + where;
    return result;
  }
  FillFromPlan(plan, data, stats);
  stats.window_files = window.value().Files();
  stats.resumed = resume;
  stats.resumed_from_step = resume ? plan.steps_done : 0;

  std::error_code ec;
  if (resume && FileSize(metrics_path) > plan.metrics_offset) {
    fs::resize_file(metrics_path, static_cast<uintmax_t>(plan.metrics_offset), ec);
    if (ec) {
      return Failure(TrainStatus::kFailed,
                     metrics_path + ": cannot cut back to the last checkpoint: " + ec.message());
    }
  }

  LoopSetup setup;
  setup.request = &r;
  setup.window = &window.value();
  setup.plan = &plan;
  setup.data = &data;
  setup.load_from = resume ? &*state_file : &input.value();
  setup.resuming = resume;
  setup.state_path = state_path;
  setup.metrics_path = metrics_path;
  if (TrainResult loop = RunTrainingLoop(setup, stats); !loop.ok()) {
    result.status = loop.status;
    result.error = std::move(loop.error);
    return result;
  }

  // Final output: the plan is complete; the state file is no longer needed.
  fs::remove(state_path, ec);
  FillFromPlan(plan, data, stats);
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace veletas::training
