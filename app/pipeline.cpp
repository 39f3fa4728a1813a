#include "app/pipeline.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include "app/arena_models.h"
#include "app/cluster_games.h"
#include "app/load_evaluator.h"
#include "app/pipeline_state.h"
#include "app/promotion.h"
#include "app/run_ratings.h"
#include "app/status_line.h"
#include "arena/gate.h"
#include "arena/ladder.h"
#include "charts/charts.h"
#include "model/model_files.h"
#include "rules/notation.h"
#include "selfplay/selfplay_engine.h"
#include "training/trainer.h"
#include "util/atomic_file.h"
#include "util/run_dir.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// CPU time of this process (all threads, user and system), in seconds.
double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

std::string Numbered(const std::string& prefix, long long n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%04lld", prefix.c_str(), n);
  return buf;
}

// The first line where two texts differ, for the config-changed error.
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "";
    if (!ga) la = "(end)";
    if (!gb) lb = "(end)";
    if (la != lb) {
      return "line " + std::to_string(line) + ": run has \"" + la + "\", config has \"" + lb + "\"";
    }
  }
}

class Pipeline {
 public:
  Pipeline(const Config& config, const PipelineOptions& options)
      : c_(config), p_(config.pipeline), run_(options.run_dir), options_(options) {}

  int Run();

 private:
  std::string ModelPath(long long gen) const { return GenerationModelPath(run_, gen); }
  std::string SamplesDir(long long iteration) const {
    return (fs::path(run_) / "samples" / Numbered("iter_", iteration)).string();
  }
  std::string Header() const {
    return "gen " + std::to_string(state_.iteration + 1) + " | " + StageName(state_.stage);
  }
  double Elapsed() const {
    return state_.elapsed_seconds +
           std::chrono::duration<double>(Clock::now() - session_start_).count();
  }
  double CpuElapsed() const {
    return state_.cpu_seconds + ProcessCpuSeconds() - session_cpu_start_;
  }
  // Adds the CPU time since the last call (or the session's start) to the generation in
  // progress.
  void ChargeCpu() {
    const double now = ProcessCpuSeconds();
    Current().cpu_seconds += now - cpu_mark_;
    cpu_mark_ = now;
  }
  // Saves state.json with the elapsed time; false (after printing) on failure.
  bool Save();
  void Log(const std::string& line);
  int Fail(int code, const std::string& message);
  void AppendToLog(const std::string& line) const;
  bool Rated(long long gen) const {
    return std::find(state_.rated_generations.begin(), state_.rated_generations.end(), gen) !=
           state_.rated_generations.end();
  }
  // The arena player of generation `gen` of this run (its network loaded through `models`,
  // played with arena.simulations).
  util::Result<arena::ArenaPlayer> GenerationPlayer(ArenaModels& models, long long gen) const;

  int Prepare();
  bool BudgetAllowsAnotherIteration(std::string& why) const;
  int StageSelfplay();
  // Sets the next self-play's resignation threshold from the no-resign games of `s`
  // (selfplay.resign_false_positive_target).
  void CalibrateResignation(const selfplay::SelfplayStats& s);
  int StageSelfplayFromCluster();
  // The self-play networks so far, newest (the best now) first: generation and checkpoint.
  std::vector<std::pair<long long, std::string>> Bests() const;
  // Where arena games are played: the cluster's workers, or this process (null).
  arena::RemoteGames* RemoteArena() { return cluster_ ? cluster_->Arena() : nullptr; }
  int StageTrain();
  int StageGate();
  int StageLadder(long long generation);
  int Finish(const std::string& reason);
  // The generation's closing lines: time, best network, and where the compute went.
  void LogGenerationDone(const GenerationSummary& g);
  GenerationSummary& Current();

  const Config& c_;
  const PipelineConfig& p_;
  std::string run_;
  PipelineOptions options_;
  PipelineState state_;
  Clock::time_point session_start_ = Clock::now();
  double session_cpu_start_ = ProcessCpuSeconds();
  double cpu_mark_ = session_cpu_start_;
  StatusLine status_;
  util::DirectoryLock lock_;
  std::unique_ptr<ClusterGames> cluster_;  // a cluster run (config section `cluster`)
};

bool Pipeline::Save() {
  PipelineState s = state_;
  s.elapsed_seconds = Elapsed();
  s.cpu_seconds = CpuElapsed();
  const util::Status saved = WritePipelineState(StatePath(run_), s);
  if (!saved.ok()) {
    status_.Clear();
    std::cerr << "veletas pipeline: " << saved.error() << "\n";
    return false;
  }
  return true;
}

void Pipeline::Log(const std::string& line) {
  status_.Clear();
  std::cout << line << std::endl;
  AppendToLog(line);
}

int Pipeline::Fail(int code, const std::string& message) {
  status_.Clear();
  std::cerr << "veletas pipeline: " << message << "\n";
  AppendToLog("error: " + message);
  return code;
}

void Pipeline::AppendToLog(const std::string& line) const {
  // The log is a copy of what was printed: a failure to append to it is not reported.
  util::AppendFile((fs::path(run_) / "logs" / "pipeline.log").string(), line + "\n");
}

GenerationSummary& Pipeline::Current() {
  const long long gen = state_.iteration + 1;
  if (state_.generations.empty() || state_.generations.back().generation != gen) {
    GenerationSummary g;
    g.generation = gen;
    state_.generations.push_back(g);
  }
  return state_.generations.back();
}

int Pipeline::Prepare() {
  std::error_code ec;
  for (const char* sub : {"models", "samples", "train", "matches", "logs"}) {
    fs::create_directories(fs::path(run_) / sub, ec);
    if (ec) return Fail(1, run_ + ": cannot create " + sub + "/: " + ec.message());
  }
  if (util::Status locked = lock_.Acquire(run_); !locked.ok()) return Fail(1, locked.error());
  // A session killed while writing leaves "<file>.tmp.<pid>" files; nothing else writes
  // here while the lock is held, so every one of them is stale.
  std::vector<std::string> errors;
  for (const std::string& path : util::RemoveStaleTemporaries(run_, &errors)) {
    Log(path + ": removed (incomplete file of a killed session)");
  }
  if (!errors.empty()) return Fail(1, errors.front());
  const std::string resolved_path = (fs::path(run_) / "config.resolved.yaml").string();
  const auto previous_read =
      fs::exists(resolved_path) ? util::ReadFile(resolved_path) : util::Result<std::string>("");
  const std::string previous = previous_read.ok() ? previous_read.value() : "";
  if (!previous.empty() && previous != c_.resolved_yaml && !options_.allow_config_change) {
    return Fail(2, c_.source + " differs from the config this run was started with (" +
                       resolved_path + "; " + FirstDifference(previous, c_.resolved_yaml) +
                       "); use the same config, or --allow-config-change to replace it");
  }
  if (util::Status e = util::WriteFileAtomic(resolved_path, c_.resolved_yaml); !e.ok()) {
    return Fail(1, e.error());
  }
  if (fs::exists(StatePath(run_))) {
    auto state = ReadPipelineState(StatePath(run_));
    if (!state) return Fail(2, state.error());
    state_ = state.value();
    Log("resuming " + run_ + ": generation " + std::to_string(state_.iteration + 1) + ", stage " +
        StageName(state_.stage) + ", best generation " + std::to_string(state_.best_generation) +
        ", " + FormatDuration(state_.elapsed_seconds) + " run so far");
    if (state_.stage == PipelineStage::kFinished && options_.allow_config_change) {
      state_.stage = PipelineStage::kSelfplay;
      state_.finished_reason.clear();
    }
  } else {
    Log("new run in " + run_ + " (" + rules::GameName(c_.game.rules, c_.game.size) + ", " +
        std::to_string(c_.model.blocks) + " blocks x " + std::to_string(c_.model.channels) +
        " channels)");
  }
  if (!fs::exists(ModelPath(0))) {
    model::ModelSpec spec{c_.game.rules, c_.game.size, c_.model};
    auto status = model::CreateInitialCheckpoint(ModelPath(0), spec, p_.init_seed);
    if (!status) return Fail(1, status.error());
    Log("created the initial network " + ModelPath(0));
  }
  if (!c_.cluster.redis.empty()) {
    auto cluster = ClusterGames::Start(c_, run_, [this](const std::string& l) { Log(l); });
    if (!cluster) return Fail(cluster.exit_code(), cluster.error());
    cluster_ = std::move(cluster.value());
    // The workers start on the best network at once.
    const long long best = state_.best_generation;
    if (util::Status s = cluster_->NewBest(best, ModelPath(best)); !s.ok()) {
      return Fail(s.exit_code(), s.error());
    }
  }
  return Save() ? 0 : 1;
}

bool Pipeline::BudgetAllowsAnotherIteration(std::string& why) const {
  if (state_.iteration >= p_.generations) {
    why = "trained " + std::to_string(p_.generations) + " generations";
    return false;
  }
  // A generation starts only when the time left likely suffices for it (the mean so far).
  auto fits = [&](double budget_minutes, double used, double GenerationSummary::*per_generation,
                  const char* what) {
    if (budget_minutes <= 0) return true;
    const double budget = budget_minutes * 60.0;
    double mean = 0;
    int n = 0;
    for (const GenerationSummary& g : state_.generations) {
      if (g.iteration_seconds > 0) {
        mean += g.*per_generation;
        ++n;
      }
    }
    if (n > 0) mean /= n;
    if (used + mean <= budget) return true;
    why = std::string(what) + " budget of " + FormatDuration(budget) + " spent (" +
          FormatDuration(used) + " used, a generation takes about " + FormatDuration(mean) + ")";
    return false;
  };
  return fits(p_.time_budget_minutes, Elapsed(), &GenerationSummary::iteration_seconds, "time") &&
         fits(p_.cpu_budget_minutes, CpuElapsed(), &GenerationSummary::cpu_seconds, "CPU time");
}

std::vector<std::pair<long long, std::string>> Pipeline::Bests() const {
  std::vector<long long> bests{0};
  for (const GenerationSummary& g : state_.generations) {
    if (g.promoted && g.generation <= state_.best_generation) bests.push_back(g.generation);
  }
  std::vector<std::pair<long long, std::string>> out;
  for (auto it = bests.rbegin(); it != bests.rend(); ++it) out.emplace_back(*it, ModelPath(*it));
  return out;
}

int Pipeline::StageSelfplayFromCluster() {
  const long long iteration = state_.iteration;
  ClusterGames::SelfplayRequest r;
  r.iteration = iteration;
  r.dir = SamplesDir(iteration);
  r.games = iteration == 0 && p_.first_generation_games > 0 ? p_.first_generation_games
                                                            : p_.games_per_generation;
  r.bests = Bests();
  for (long long i = 0; i < iteration; ++i) r.earlier_dirs.push_back(SamplesDir(i));
  r.progress = [&](const std::string& text) { status_.Update(Header() + " | " + text); };
  cluster_->Stage(Header());
  const auto start = Clock::now();
  auto result = cluster_->Selfplay(r);
  if (!result) return Fail(result.exit_code(), result.error());
  GenerationSummary& g = Current();
  g.selfplay_games = result.value().games;
  g.selfplay_samples += result.value().samples;
  g.selfplay_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  ChargeCpu();
  Log("gen " + std::to_string(iteration + 1) + " self-play: " + result.value().line);
  state_.stage = PipelineStage::kTrain;
  return Save() ? 0 : 1;
}

int Pipeline::StageSelfplay() {
  if (cluster_) return StageSelfplayFromCluster();
  const long long iteration = state_.iteration;
  const int64_t games = iteration == 0 && p_.first_generation_games > 0 ? p_.first_generation_games
                                                                        : p_.games_per_generation;
  auto loaded = LoadConfigNetwork(ModelPath(state_.best_generation), c_);
  if (!loaded) return Fail(loaded.exit_code(), loaded.error());
  search::Evaluator& evaluator = *loaded.value().evaluator;
  selfplay::SelfplayJob job;
  job.rules = c_.game.rules;
  job.size = c_.game.size;
  job.games = games;
  job.out_dir = SamplesDir(iteration);
  job.generation = static_cast<uint64_t>(iteration);
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = status_.IsTerminal() ? 1.0 : 10.0;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    status_.Update(Header() + " | best gen " + std::to_string(state_.best_generation) + " | " +
                   selfplay::FormatProgress(s));
  };
  hooks.log = [&](const std::string& m) { Log("  self-play: " + m); };
  selfplay::SelfplayConfig config = c_.selfplay;
  if (state_.resign_calibrated)
    config.resign_threshold = static_cast<float>(state_.resign_threshold);
  const auto start = Clock::now();
  auto result = selfplay::RunSelfplay(config, c_.search, c_.evaluator, evaluator, job, hooks);
  if (!result) return Fail(result.exit_code(), result.error());
  const selfplay::SelfplayStats& s = result.value();
  GenerationSummary& g = Current();
  g.selfplay_games = s.games_resumed + s.games_finished;
  g.selfplay_samples += s.samples;
  g.selfplay_network_evaluations += static_cast<int64_t>(s.network_positions);
  g.selfplay_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  g.swap_rate = s.SwapRate();
  g.resign_threshold = config.resign_threshold;
  ChargeCpu();
  char line[512];
  std::snprintf(line, sizeof line,
                "gen %lld self-play: %lld games by gen %lld (%lld resumed), %lld samples, "
                "%.1f turns/game, %.0f evals/s, batch fill %.0f%%, swaps %.0f%%, first player "
                "won %lld, resigned %.0f%% at %.2f (false positives %lld of %lld), %s",
                iteration + 1, static_cast<long long>(g.selfplay_games),
                static_cast<long long>(state_.best_generation),
                static_cast<long long>(s.games_resumed), static_cast<long long>(s.samples),
                s.MeanTurns(), s.NetworkEvaluationsPerSecond(), 100 * s.MeanBatchFill(),
                100 * s.SwapRate(), static_cast<long long>(s.wins_first),
                s.games_finished > 0 ? 100.0 * s.resignations / s.games_finished : 0.0,
                config.resign_threshold, static_cast<long long>(s.false_positives),
                static_cast<long long>(s.would_resign), FormatDuration(g.selfplay_seconds).c_str());
  Log(line);
  CalibrateResignation(s);
  state_.stage = PipelineStage::kTrain;
  return Save() ? 0 : 1;
}

void Pipeline::CalibrateResignation(const selfplay::SelfplayStats& s) {
  const double target = c_.selfplay.resign_false_positive_target;
  if (target <= 0 || c_.selfplay.resign_threshold <= -1.0f) return;  // fixed, or resignation off
  // At least 10 would-be resigners at a threshold of 0 (a few dozen no-resign games).
  const auto next = selfplay::CalibrateResignThreshold(s.resign_observations, target, 10);
  if (!next) {
    Log("  resignation: too few no-resign games to calibrate; the threshold stays " +
        std::to_string(state_.resign_calibrated ? state_.resign_threshold
                                                : c_.selfplay.resign_threshold));
    return;
  }
  state_.resign_threshold = *next;
  state_.resign_calibrated = true;
  char line[160];
  std::snprintf(line, sizeof line,
                "  resignation: threshold %.2f for the next generation (the highest with at most "
                "%.0f%% false positives in this generation's no-resign games)",
                *next, 100 * target);
  Log(line);
}

int Pipeline::StageTrain() {
  const long long iteration = state_.iteration;
  training::TrainRequest req;
  req.config = c_.training;
  req.spec = model::ModelSpec{c_.game.rules, c_.game.size, c_.model};
  req.device = c_.model.device;
  req.input_checkpoint = ModelPath(iteration);
  for (long long i = 0; i <= iteration; ++i) req.data.push_back(SamplesDir(i));
  req.output_checkpoint = ModelPath(iteration + 1);
  req.generation = iteration + 1;
  req.metrics_path = (fs::path(run_) / "train" / "metrics.jsonl").string();
  req.progress = [&](const training::TrainProgress& t) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  " | step %lld/%lld | loss %.3f (policy %.3f value %.3f aux %.3f) | %.0f "
                  "samples/s | ETA %s",
                  static_cast<long long>(t.step), static_cast<long long>(t.steps), t.loss_total,
                  t.loss_policy, t.loss_value, t.loss_aux, t.samples_per_second,
                  FormatDuration(t.eta_seconds).c_str());
    status_.Update(Header() + buf);
  };
  req.log = [&](const std::string& m) { Log("  training: " + m); };
  const training::TrainResult result = training::TrainGeneration(req);
  if (!result.ok()) {
    return Fail(result.status == training::TrainStatus::kBadInput ? 2 : 1, result.error);
  }
  if (fs::exists(req.metrics_path)) {  // a chart that cannot be drawn is only a note
    auto drawn = charts::DrawLossChart(req.metrics_path,
                                       (fs::path(run_) / "train" / "training_loss.png").string());
    if (!drawn) Log("  " + drawn.error());
  }
  const training::TrainStats& t = result.stats;
  GenerationSummary& g = Current();
  g.train_steps = t.steps;
  g.loss_total = t.loss_total;
  g.loss_policy = t.loss_policy;
  g.loss_value = t.loss_value;
  g.train_seconds = t.seconds;
  g.train_samples = t.steps * c_.training.batch_size;
  ChargeCpu();
  char line[512];
  std::snprintf(line, sizeof line,
                "gen %lld training: %lld steps (%lld in all), window %lld of %lld samples, loss "
                "%.3f (policy %.3f, value %.3f, aux %.3f), %.0f samples/s, %s",
                iteration + 1, static_cast<long long>(t.steps),
                static_cast<long long>(t.global_steps), static_cast<long long>(t.window_samples),
                static_cast<long long>(t.total_samples), t.loss_total, t.loss_policy, t.loss_value,
                t.loss_aux, t.loop_samples_per_second, FormatDuration(t.seconds).c_str());
  Log(line);
  for (const std::string& s : t.skipped) Log("  training skipped " + s);
  state_.stage = PipelineStage::kGate;
  return Save() ? 0 : 1;
}

util::Result<arena::ArenaPlayer> Pipeline::GenerationPlayer(ArenaModels& models,
                                                            long long gen) const {
  auto m = models.Get(ModelPath(gen));
  if (!m) return m.error_value();
  return arena::MakeGenerationPlayer(gen, ModelPath(gen), m.value()->Evaluator(), c_.search,
                                     c_.arena.arena.simulations);
}

int Pipeline::StageGate() {
  const long long candidate = state_.iteration + 1;
  GenerationSummary& g = Current();
  if (p_.promotion == Promotion::kAlways) {
    g.promoted = true;
    g.gated_against = -1;
    g.gate_reason = "promotion: always";
  } else {
    ArenaModels models(c_.game.rules, c_.game.size, c_.model, c_.evaluator);
    auto cand = GenerationPlayer(models, candidate);
    if (!cand) return Fail(2, cand.error());
    auto best = GenerationPlayer(models, state_.best_generation);
    if (!best) return Fail(2, best.error());
    const arena::ArenaPlayer& a = cand.value();
    const arena::ArenaPlayer& b = best.value();
    const auto start = Clock::now();
    auto result = arena::RunGate(
        a, b, c_.game.rules, c_.game.size, PromotionGateSettings(p_, c_.arena.gate), c_.arena.arena,
        run_, "",
        [&](const arena::ArenaProgress& p) {
          char buf[160];
          std::snprintf(buf, sizeof buf, " | gen %lld vs gen %lld | %d games, %d-%d", candidate,
                        static_cast<long long>(state_.best_generation), p.games_done, p.a_wins,
                        p.b_wins);
          status_.Update(Header() + buf);
        },
        RemoteArena());
    if (!result) return Fail(1, result.error());
    const arena::GateResult& r = result.value();
    for (const std::string& note : r.notes) Log(note);
    g.promoted = Promoted(p_.promotion, r.evidence);
    g.gate_evaluations += r.stats.evaluations;
    g.gated_against = state_.best_generation;
    g.gate_games = r.evidence.games;
    g.gate_wins = r.evidence.wins;
    g.gate_reason = r.evidence.reason;
    if (p_.promotion == Promotion::kLatest) {
      g.gate_reason = std::string(g.promoted ? "not clearly worse" : "clearly worse") +
                      " (check of promotion: latest): " + g.gate_reason;
    }
    g.gate_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  ChargeCpu();
  std::string line = "gen " + std::to_string(candidate) + " gate: ";
  if (g.gated_against >= 0) {
    line += std::string(g.promoted ? "promoted" : "rejected") + " against gen " +
            std::to_string(g.gated_against) + " after " + std::to_string(g.gate_games) +
            " games (" + std::to_string(g.gate_wins) + " won): " + g.gate_reason;
  } else {
    line += g.gate_reason;
  }
  if (g.promoted) state_.best_generation = candidate;
  Log(line);
  if (g.promoted && cluster_) {  // the workers' self-play switches to it now
    if (util::Status s = cluster_->NewBest(candidate, ModelPath(candidate)); !s.ok()) {
      return Fail(s.exit_code(), s.error());
    }
  }
  state_.stage = PipelineStage::kLadder;
  return Save() ? 0 : 1;
}

int Pipeline::StageLadder(long long generation) {
  if (cluster_) cluster_->Stage(Header() + " | ladder round of gen " + std::to_string(generation));
  ArenaModels models(c_.game.rules, c_.game.size, c_.model, c_.evaluator);
  auto newcomer = GenerationPlayer(models, generation);
  if (!newcomer) return Fail(2, newcomer.error());
  const arena::ArenaPlayer& player = newcomer.value();
  std::vector<arena::ArenaPlayer> previous;
  for (long long gen : arena::PreviousGenerationsToPlay(generation, state_.rated_generations,
                                                        c_.arena.ladder.previous_generations)) {
    auto p = GenerationPlayer(models, gen);
    if (!p) return Fail(2, p.error());
    previous.push_back(p.value());
  }
  const auto start = Clock::now();
  auto round = arena::RunLadderRound(
      run_, c_.game.rules, c_.game.size, player, previous, c_.arena.arena, c_.arena.ladder,
      [&](const std::string& match, const arena::ArenaProgress& p) {
        char buf[200];
        std::snprintf(buf, sizeof buf, " | %s | %d/%d games, %d-%d", match.c_str(), p.games_done,
                      p.games_total, p.a_wins, p.b_wins);
        status_.Update(Header() + buf);
      },
      RemoteArena());
  if (!round) return Fail(round.exit_code(), round.error());
  uint64_t evaluations = 0;
  for (const arena::LadderMatchReport& m : round.value().matches) {
    evaluations += m.stats.evaluations;
    for (const std::string& note : m.notes) Log(note);
    Log("  " + m.name + ": " + std::to_string(m.a_wins) + "-" + std::to_string(m.b_wins) +
        (m.existed ? " (played before)" : ""));
  }
  std::ostringstream warnings;
  auto rated = RateRun(run_, 1.0, warnings);
  if (!rated) return Fail(1, rated.error());
  if (std::string e = DrawRatingsPng(rated.value()); !e.empty()) Log("  " + e);
  std::ostringstream table;
  PrintLadderTable(rated.value().ladder, table);
  std::istringstream lines(table.str());
  Log("ratings after gen " + std::to_string(generation) + " (random = 0; best is gen " +
      std::to_string(state_.best_generation) + "):");
  for (std::string l; std::getline(lines, l);) Log("  " + l);
  state_.rated_generations.push_back(generation);
  if (generation == state_.iteration + 1 && !state_.generations.empty()) {
    Current().ladder_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    Current().ladder_evaluations = evaluations;
    ChargeCpu();
  }
  return 0;
}

void Pipeline::LogGenerationDone(const GenerationSummary& g) {
  ComputeShares mine, run;
  mine.Add(g);
  for (const GenerationSummary& s : state_.generations) run.Add(s);
  char cpu[64];
  std::snprintf(cpu, sizeof cpu, "%.1f CPU-minutes", CpuElapsed() / 60.0);
  Log("=== generation " + std::to_string(g.generation) + " done in " +
      FormatDuration(g.iteration_seconds) + "; best network: gen " +
      std::to_string(state_.best_generation) + "; run time " + FormatDuration(Elapsed()) + " (" +
      cpu + ")");
  Log("  compute: " + FormatComputeShares(mine));
  char share[64];
  std::snprintf(share, sizeof share, "%.0f%% learning", 100 * run.LearningShare());
  Log("  compute of the run so far: " + std::string(share) + ": " + FormatComputeShares(run));
}

int Pipeline::Finish(const std::string& reason) {
  const long long best = state_.best_generation;
  if (p_.final_ladder && best > 0 && !Rated(best)) {
    Log("final rating of the best network, gen " + std::to_string(best));
    if (int code = StageLadder(best); code != 0) return code;
  }
  state_.stage = PipelineStage::kFinished;
  state_.finished_reason = reason;
  if (!Save()) return 1;
  Log("finished: " + reason + "; best network: gen " + std::to_string(best) + " (" +
      ModelPath(best) + "), " + FormatDuration(Elapsed()) + " in all");
  Log("next: veletas report " + run_ + "   |   veletas play --model " + ModelPath(best));
  return 0;
}

int Pipeline::Run() {
  if (int code = Prepare(); code != 0) return code;
  for (;;) {
    int code = 0;
    switch (state_.stage) {
      case PipelineStage::kFinished:
        Log("the run is finished (" + state_.finished_reason + "); best network: gen " +
            std::to_string(state_.best_generation) +
            ". To train further, raise pipeline.generations or the time budget and pass "
            "--allow-config-change.");
        return 0;
      case PipelineStage::kSelfplay: {
        std::string why;
        if (!BudgetAllowsAnotherIteration(why)) return Finish(why);
        code = StageSelfplay();
        break;
      }
      case PipelineStage::kTrain:
        if (cluster_) cluster_->Stage(Header());
        code = StageTrain();
        break;
      case PipelineStage::kGate:
        if (cluster_) cluster_->Stage(Header());
        code = StageGate();
        break;
      case PipelineStage::kLadder: {
        const long long gen = state_.iteration + 1;
        if (p_.ladder_every > 0 && gen % p_.ladder_every == 0 && !Rated(gen)) {
          code = StageLadder(gen);
          if (code != 0) break;
        }
        GenerationSummary& g = Current();
        g.iteration_seconds =
            g.selfplay_seconds + g.train_seconds + g.gate_seconds + g.ladder_seconds;
        ChargeCpu();
        LogGenerationDone(g);
        state_.iteration += 1;
        state_.stage = PipelineStage::kSelfplay;
        if (!Save()) return 1;
        break;
      }
    }
    if (code != 0) return code;
  }
}

}  // namespace

std::string GenerationModelPath(const std::string& run_dir, long long generation) {
  return (fs::path(run_dir) / "models" / (Numbered("gen_", generation) + ".ckpt")).string();
}

int RunPipeline(const Config& config, const PipelineOptions& options) {
  Pipeline pipeline(config, options);
  return pipeline.Run();
}

}  // namespace veletas::app
