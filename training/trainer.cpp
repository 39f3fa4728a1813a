// TrainGeneration: planning, resume and the output (the training loop is in train_loop.cpp).
#include "training/trainer.h"

#include <chrono>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "model/base/checkpoint_file.h"
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

// TrainGeneration's error as a result: bad input (kBadInput) or a failure (kFailed).
TrainResult FromError(const util::Error& e) {
  return Failure(
      e.kind == util::ErrorKind::kBadInput ? TrainStatus::kBadInput : TrainStatus::kFailed,
      e.message);
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

// What one TrainGeneration call works with, step by step.
struct Call {
  Call(const TrainRequest& request, TrainStats& call_stats, model::CheckpointFile input_file)
      : r(request), stats(call_stats), input(std::move(input_file)) {}
  const TrainRequest& r;
  TrainStats& stats;
  model::CheckpointFile input;  // read once: metadata, fingerprint and (unless resuming) weights
  std::string fingerprint;
  int64_t generation = 0;
  std::string metrics_path;
  std::string state_path;
  CallPlan plan;
  DataState data;
  bool resume = false;
  std::optional<model::CheckpointFile> state_file;
  std::map<std::string, data::SampleFile> loaded;  // sample files read while ingesting

  void Note(const std::string& message) const {
    if (r.log) r.log(message);
  }
  // Whether a stored plan is this call's: the same input and generation.
  bool Matches(const CallPlan& p) const {
    return p.input_fingerprint == fingerprint && p.generation == generation;
  }
  void Skipped(const std::vector<std::string>& files) {
    for (const std::string& s : files) {
      Note("skipping " + s);
      stats.skipped.push_back(s);
    }
  }
};

// The request's own errors: invalid settings, a missing path, the output being the input.
util::Status CheckRequest(const TrainRequest& r) {
  if (util::Status valid = r.config.Validate(); !valid) {
    return util::Error{"training config: " + valid.error()};
  }
  if (r.input_checkpoint.empty() || r.output_checkpoint.empty()) {
    return util::Error{"an input and an output checkpoint are needed"};
  }
  std::error_code ec;
  if (fs::exists(r.output_checkpoint, ec) &&
      fs::equivalent(r.input_checkpoint, r.output_checkpoint, ec)) {
    return util::Error{r.output_checkpoint + ": the output checkpoint must differ from the input"};
  }
  return util::Ok();
}

// Whether the output exists for this input and generation (then `stats` describes it and a
// state file left by a kill right after the output was written is removed).
bool AlreadyDone(Call& c) {
  if (!fs::exists(c.r.output_checkpoint)) return false;
  auto meta = model::ReadCheckpointMeta(c.r.output_checkpoint);
  if (!meta) return false;
  auto stored = ReadStoredTraining(meta.value(), c.r.output_checkpoint);
  if (!stored || !stored.value().plan.complete || !c.Matches(stored.value().plan)) return false;
  FillFromPlan(stored.value().plan, stored.value().data, c.stats);
  c.stats.already_done = true;
  std::error_code ec;
  fs::remove(c.state_path, ec);
  c.Note(c.r.output_checkpoint + ": already trained from this input; nothing to do");
  return true;
}

// Resumes from the training-state file (read once: its plan and its weights) when it is this
// call's.
void TryResume(Call& c) {
  if (!fs::exists(c.state_path)) return;
  auto file = model::ReadCheckpoint(c.state_path);
  auto stored = file ? ReadStoredTraining(file.value().meta, c.state_path) : file.error_value();
  if (stored && c.Matches(stored.value().plan)) {
    c.plan = stored.value().plan;
    c.data = stored.value().data;
    c.state_file = std::move(file.value());
    c.resume = true;
    c.Note("resuming from " + c.state_path + " at step " + std::to_string(c.plan.steps_done) +
           " of " + std::to_string(c.plan.steps));
  } else {
    c.Note("ignoring " + c.state_path + " (" +
           (stored ? std::string("another input or generation") : stored.error()) + ")");
  }
}

// A new call's plan: the input's data state, the new sample files ingested, the steps.
util::Status PlanNewCall(Call& c) {
  const TrainRequest& r = c.r;
  const model::CheckpointMeta& input_meta = c.input.meta;
  if (const auto it = input_meta.extra.find(kExtraData); it != input_meta.extra.end()) {
    auto parsed = DataStateFromJson(it->second, r.input_checkpoint);
    if (!parsed) return util::Error{parsed.error()};
    c.data = parsed.value();
  }
  auto listed = ListSampleFiles(r.data);
  if (!listed) return util::Error{listed.error()};
  auto ingest = IngestFiles(c.data, listed.value(), r.spec.rules, r.spec.size, r.config.window_max);
  if (!ingest) return util::Error{ingest.error()};
  c.Skipped(ingest.value().skipped);
  CallPlan& plan = c.plan;
  plan.input_fingerprint = c.fingerprint;
  plan.generation = c.generation;
  plan.start_step = input_meta.training_steps;
  plan.steps = PlanSteps(r.config, ingest.value().new_samples, r.steps, c.data);
  plan.first_batch = c.data.batches_drawn;
  plan.seed = r.config.seed;
  plan.metrics_offset = FileSize(c.metrics_path);
  plan.new_files = ingest.value().new_files;
  plan.new_samples = ingest.value().new_samples;
  plan.window_samples = WindowSize(r.config, c.data.total_samples);
  c.loaded = std::move(ingest.value().loaded);
  return util::Ok();
}

// The replay window of the plan; bad input when it holds no sample.
util::Result<ReplayWindow> LoadWindow(Call& c) {
  std::vector<std::string> window_skipped;
  auto window =
      ReplayWindow::Load(c.data, c.plan.window_samples, c.r.spec.rules, c.r.spec.size,
                         std::move(c.loaded), window_skipped, c.r.config.aux_ignore_resigned);
  if (!window) return util::Error{window.error()};
  c.Skipped(window_skipped);
  if (window.value().Size() == 0) {
    std::string where;
    for (const std::string& d : c.r.data) where += (where.empty() ? "" : ", ") + d;
    return util::Error{"no usable sample data in " + where};
  }
  return window;
}

// A resumed call's metrics.jsonl cut back to the last training-state file's offset.
util::Status CutMetricsBack(const Call& c) {
  if (!c.resume || FileSize(c.metrics_path) <= c.plan.metrics_offset) return util::Ok();
  std::error_code ec;
  fs::resize_file(c.metrics_path, static_cast<uintmax_t>(c.plan.metrics_offset), ec);
  if (ec) {
    return util::Error{c.metrics_path + ": cannot cut back to the last checkpoint: " + ec.message(),
                       util::ErrorKind::kFailure};
  }
  return util::Ok();
}

}  // namespace

TrainResult TrainGeneration(const TrainRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  if (util::Status request = CheckRequest(r); !request) return FromError(request.error_value());
  auto input = model::ReadCheckpoint(r.input_checkpoint);
  if (!input) return Failure(TrainStatus::kBadInput, input.error());
  if (util::Status fits = model::CheckFits(input.value(), r.spec); !fits) {
    return Failure(TrainStatus::kBadInput, fits.error());
  }
  TrainResult result;
  Call c(r, result.stats, std::move(input.value()));
  c.fingerprint = Fingerprint(c.input);
  c.generation = r.generation >= 0 ? r.generation : c.input.meta.generation + 1;
  c.metrics_path = MetricsPath(r);
  c.state_path = TrainingStatePath(r.output_checkpoint);

  // One writer per output directory, as a pipeline's run has; once the lock is held, every
  // temporary file found there is a killed writer's.
  const fs::path out_dir = fs::absolute(r.output_checkpoint).parent_path();
  util::DirectoryLock lock;
  const auto removed = util::LockAndClean(out_dir.string(), lock, out_dir.string(), false);
  if (!removed) return Failure(TrainStatus::kFailed, removed.error());
  for (const std::string& p : removed.value()) {
    c.Note(p + ": removed (incomplete file of an earlier run)");
  }
  if (AlreadyDone(c)) return result;
  TryResume(c);
  if (!c.resume) {
    if (util::Status planned = PlanNewCall(c); !planned) return FromError(planned.error_value());
  }
  auto window = LoadWindow(c);
  if (!window) {
    result.status = TrainStatus::kBadInput;
    result.error = window.error();
    return result;
  }
  FillFromPlan(c.plan, c.data, c.stats);
  c.stats.window_files = window.value().Files();
  c.stats.resumed = c.resume;
  c.stats.resumed_from_step = c.resume ? c.plan.steps_done : 0;
  if (util::Status cut = CutMetricsBack(c); !cut) {
    result.status = TrainStatus::kFailed;
    result.error = cut.error();
    return result;
  }

  LoopSetup setup;
  setup.request = &r;
  setup.window = &window.value();
  setup.plan = &c.plan;
  setup.data = &c.data;
  setup.load_from = c.resume ? &*c.state_file : &c.input;
  setup.resuming = c.resume;
  setup.state_path = c.state_path;
  setup.metrics_path = c.metrics_path;
  if (TrainResult loop = RunTrainingLoop(setup, c.stats); !loop.ok()) {
    result.status = loop.status;
    result.error = std::move(loop.error);
    return result;
  }

  // Final output: the plan is complete; the state file is no longer needed.
  std::error_code ec;
  fs::remove(c.state_path, ec);
  FillFromPlan(c.plan, c.data, c.stats);
  c.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace veletas::training
