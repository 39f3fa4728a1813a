// The pipeline's stages: self-play (local or from the cluster's workers), training, the
// gate and the rating ladder.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "arena/gate.h"
#include "arena/ladder.h"
#include "charts/charts.h"
#include "pipeline/pipeline_run.h"
#include "pipeline/promotion.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_stats.h"
#include "util/text.h"

namespace veletas::pipeline::internal {

using util::FormatDuration;

std::vector<std::pair<long long, std::string>> Pipeline::Bests() const {
  std::vector<long long> bests{0};
  for (const GenerationSummary& g : state_.generations) {
    if (g.promoted && g.generation <= state_.best_generation) bests.push_back(g.generation);
  }
  std::vector<std::pair<long long, std::string>> out;
  for (auto it = bests.rbegin(); it != bests.rend(); ++it) out.emplace_back(*it, ModelPath(*it));
  return out;
}

util::Status Pipeline::StageSelfplayFromCluster() {
  const long long iteration = state_.iteration;
  RemotePlay::SelfplayRequest r;
  r.iteration = iteration;
  r.dir = SamplesDir(iteration);
  r.games = iteration == 0 && p_.first_generation_games > 0 ? p_.first_generation_games
                                                            : p_.games_per_generation;
  r.bests = Bests();
  for (long long i = 0; i < iteration; ++i) r.earlier_dirs.push_back(SamplesDir(i));
  r.progress = [&](const std::string& text) { Progress(Header() + " | " + text); };
  cluster_->Stage(Header());
  const double start = clock_.WallSeconds();
  auto result = cluster_->Selfplay(r);
  if (!result) return Fail(result.error_value());
  GenerationSummary& g = Current();
  g.selfplay_games = result.value().games;
  g.selfplay_samples += result.value().samples;
  g.selfplay_seconds += clock_.WallSeconds() - start;
  ChargeCpu();
  Log("gen " + std::to_string(iteration + 1) + " self-play: " + result.value().line);
  state_.stage = PipelineStage::kTrain;
  return Save();
}

util::Status Pipeline::StageSelfplay() {
  if (cluster_) return StageSelfplayFromCluster();
  const long long iteration = state_.iteration;
  const int64_t games = iteration == 0 && p_.first_generation_games > 0 ? p_.first_generation_games
                                                                        : p_.games_per_generation;
  auto loaded = services_.networks.LoadForSelfplay(ModelPath(state_.best_generation));
  if (!loaded) return Fail(loaded.error_value());
  search::Evaluator& evaluator = *loaded.value();
  selfplay::SelfplayJob job;
  job.rules = c_.game.rules;
  job.size = c_.game.size;
  job.games = games;
  job.out_dir = SamplesDir(iteration);
  job.generation = static_cast<uint64_t>(iteration);
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = services_.reporter.ProgressSeconds();
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    Progress(Header() + " | best gen " + std::to_string(state_.best_generation) + " | " +
             selfplay::FormatProgress(s));
  };
  hooks.log = [&](const std::string& m) { Log("  self-play: " + m); };
  selfplay::SelfplayConfig config = c_.selfplay;
  if (state_.resign_calibrated)
    config.resign_threshold = static_cast<float>(state_.resign_threshold);
  const double start = clock_.WallSeconds();
  auto result = selfplay::RunSelfplay(config, c_.search, c_.evaluator, evaluator, job, hooks);
  if (!result) return Fail(result.error_value());
  const selfplay::SelfplayStats& s = result.value();
  GenerationSummary& g = Current();
  g.selfplay_games = s.games_resumed + s.games_finished;
  g.selfplay_samples += s.samples;
  g.selfplay_network_evaluations += static_cast<int64_t>(s.network_positions);
  g.selfplay_seconds += clock_.WallSeconds() - start;
  g.swap_rate = s.SwapRate();
  g.resign_threshold = config.resign_threshold;
  ChargeCpu();
  Log(fmt::format(
      "gen {} self-play: {} games by gen {} ({} resumed), {} samples, {:.1f} turns/game, {:.0f} "
      "evals/s, batch fill {:.0f}%, swaps {:.0f}%, first player won {}, resigned {:.0f}% at {:.2f} "
      "(false positives {} of {}), {}",
      iteration + 1, g.selfplay_games, state_.best_generation, s.games_resumed, s.samples,
      s.MeanTurns(), s.NetworkEvaluationsPerSecond(), 100 * s.MeanBatchFill(), 100 * s.SwapRate(),
      s.wins_first, s.games_finished > 0 ? 100.0 * s.resignations / s.games_finished : 0.0,
      config.resign_threshold, s.false_positives, s.would_resign,
      FormatDuration(g.selfplay_seconds)));
  CalibrateResignation(s);
  state_.stage = PipelineStage::kTrain;
  return Save();
}

void Pipeline::CalibrateResignation(const selfplay::SelfplayStats& s) {
  const double target = c_.selfplay.resign_false_positive_target;
  // A target of 0 keeps the threshold fixed; with resignation off there is nothing to tune.
  if (target <= 0 || selfplay::ResignationOff(c_.selfplay.resign_threshold)) return;
  if (state_.best_generation == 0) {
    // The untrained network's values say nothing of the trained one's: a threshold taken from
    // them made a quick-7x7 generation 2 resign 88% of its games, 39% of them wrongly.
    Log("  resignation: not calibrated on the initial network's games");
    return;
  }
  // At least 10 would-be resigners at a threshold of 0 (a few dozen no-resign games).
  const auto next = selfplay::CalibrateResignThreshold(s.resign_observations, target, 10);
  if (!next) {
    Log(fmt::format(
        "  resignation: too few no-resign games to calibrate; the threshold stays {:.2f}",
        state_.resign_calibrated ? state_.resign_threshold : c_.selfplay.resign_threshold));
    return;
  }
  state_.resign_threshold = *next;
  state_.resign_calibrated = true;
  if (selfplay::ResignationOff(*next)) {
    Log(fmt::format(
        "  resignation: off for the next generation (too few would-be resigners lost to show a "
        "threshold with at most {:.0f}% false positives)",
        100 * target));
    return;
  }
  Log(
      fmt::format("  resignation: threshold {:.2f} for the next generation (the highest with at "
                  "most {:.0f}% false positives in this generation's no-resign games)",
                  *next, 100 * target));
}

util::Status Pipeline::StageTrain() {
  const long long iteration = state_.iteration;
  TrainJob job;
  job.input_checkpoint = ModelPath(iteration);
  for (long long i = 0; i <= iteration; ++i) job.data.push_back(SamplesDir(i));
  job.output_checkpoint = ModelPath(iteration + 1);
  job.generation = iteration + 1;
  job.metrics_path = (fs::path(run_) / "train" / "metrics.jsonl").string();
  job.progress = [&](const TrainProgress& t) {
    Progress(Header() +
             fmt::format(" | step {}/{} | loss {:.3f} (policy {:.3f} value {:.3f} aux {:.3f}) "
                         "| {:.0f} samples/s | ETA {}",
                         t.step, t.steps, t.loss_total, t.loss_policy, t.loss_value, t.loss_aux,
                         t.samples_per_second, FormatDuration(t.eta_seconds)));
  };
  job.log = [&](const std::string& m) { Log("  training: " + m); };
  const util::Result<TrainSummary> result = services_.networks.Train(job);
  if (!result) return Fail(result.error_value());
  if (fs::exists(job.metrics_path)) {  // a chart that cannot be drawn is only a note
    auto drawn = charts::DrawLossChart(job.metrics_path,
                                       (fs::path(run_) / "train" / "training_loss.png").string());
    if (!drawn) Log("  " + drawn.error());
  }
  const TrainSummary& t = result.value();
  GenerationSummary& g = Current();
  g.train_steps = t.steps;
  g.loss_total = t.loss_total;
  g.loss_policy = t.loss_policy;
  g.loss_value = t.loss_value;
  g.train_seconds = t.seconds;
  g.train_samples = t.steps * c_.training.batch_size;
  ChargeCpu();
  Log(
      fmt::format("gen {} training: {} steps ({} in all), window {} of {} samples, loss {:.3f} "
                  "(policy {:.3f}, value {:.3f}, aux {:.3f}), {:.0f} samples/s, {}",
                  iteration + 1, t.steps, t.global_steps, t.window_samples, t.total_samples,
                  t.loss_total, t.loss_policy, t.loss_value, t.loss_aux, t.loop_samples_per_second,
                  FormatDuration(t.seconds)));
  for (const std::string& s : t.skipped) Log("  training skipped " + s);
  state_.stage = PipelineStage::kGate;
  return Save();
}

util::Result<arena::ArenaPlayer> Pipeline::GenerationPlayer(ArenaNetworks& networks,
                                                            long long gen) const {
  auto evaluator = networks.Get(ModelPath(gen));
  if (!evaluator) return evaluator.error_value();
  return arena::MakeGenerationPlayer(gen, ModelPath(gen), *evaluator.value(), c_.search,
                                     c_.arena.arena.simulations);
}

util::Status Pipeline::PlayGate(long long candidate, GenerationSummary& g) {
  std::unique_ptr<ArenaNetworks> networks = services_.networks.ForArena();
  auto cand = GenerationPlayer(*networks, candidate);
  if (!cand) return Fail(util::ErrorKind::kBadInput, cand.error());
  auto best = GenerationPlayer(*networks, state_.best_generation);
  if (!best) return Fail(util::ErrorKind::kBadInput, best.error());
  const arena::ArenaPlayer& a = cand.value();
  const arena::ArenaPlayer& b = best.value();
  const double start = clock_.WallSeconds();
  auto result = arena::RunGate(
      a, b, c_.game.rules, c_.game.size, PromotionGateSettings(p_, c_.arena.gate), c_.arena.arena,
      run_, "",
      [&](const arena::ArenaProgress& p) {
        Progress(Header() + fmt::format(" | gen {} vs gen {} | {} games, {}-{}", candidate,
                                        state_.best_generation, p.games_done, p.a_wins, p.b_wins));
      },
      RemoteArena());
  if (!result) return Fail(util::ErrorKind::kFailure, result.error());
  const arena::GateResult& r = result.value();
  for (const std::string& note : r.notes) Log(note);
  g.promoted = Promoted(p_.promotion, r.evidence);
  g.gate_evaluations += r.stats.evaluations;
  g.gated_against = state_.best_generation;
  g.gate_games = r.evidence.games;
  g.gate_wins = r.evidence.wins;
  g.gate_reason = PromotionReason(p_.promotion, r.evidence);
  g.gate_seconds = clock_.WallSeconds() - start;
  return util::Ok();
}

util::Status Pipeline::StageGate() {
  const long long candidate = state_.iteration + 1;
  GenerationSummary& g = Current();
  if (p_.promotion == config::Promotion::kAlways) {
    g.promoted = true;
    g.gated_against = -1;
    g.gate_reason = "promotion: always";
  } else if (util::Status played = PlayGate(candidate, g); !played.ok()) {
    return played;
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
      return Fail(s.error_value());
    }
  }
  state_.stage = PipelineStage::kLadder;
  return Save();
}

util::Status Pipeline::StageLadder(long long generation) {
  if (cluster_) cluster_->Stage(Header() + " | ladder round of gen " + std::to_string(generation));
  std::unique_ptr<ArenaNetworks> networks = services_.networks.ForArena();
  auto newcomer = GenerationPlayer(*networks, generation);
  if (!newcomer) return Fail(util::ErrorKind::kBadInput, newcomer.error());
  const arena::ArenaPlayer& player = newcomer.value();
  std::vector<arena::ArenaPlayer> previous;
  for (long long gen : arena::PreviousGenerationsToPlay(generation, state_.rated_generations,
                                                        c_.arena.ladder.previous_generations)) {
    auto p = GenerationPlayer(*networks, gen);
    if (!p) return Fail(util::ErrorKind::kBadInput, p.error());
    previous.push_back(p.value());
  }
  const double start = clock_.WallSeconds();
  auto round = arena::RunLadderRound(
      run_, c_.game.rules, c_.game.size, player, previous, c_.arena.arena, c_.arena.ladder,
      [&](const std::string& match, const arena::ArenaProgress& p) {
        Progress(Header() + fmt::format(" | {} | {}/{} games, {}-{}", match, p.games_done,
                                        p.games_total, p.a_wins, p.b_wins));
      },
      RemoteArena());
  if (!round) return Fail(round.error_value());
  uint64_t evaluations = 0;
  for (const arena::LadderMatchReport& m : round.value().matches) {
    evaluations += m.stats.evaluations;
    for (const std::string& note : m.notes) Log(note);
    Log("  " + m.name + ": " + std::to_string(m.a_wins) + "-" + std::to_string(m.b_wins) +
        (m.existed ? " (played before)" : ""));
  }
  if (util::Status rated = RateAfterLadder(generation); !rated.ok()) return rated;
  state_.rated_generations.push_back(generation);
  if (generation == state_.iteration + 1 && !state_.generations.empty()) {
    Current().ladder_seconds = clock_.WallSeconds() - start;
    Current().ladder_evaluations = evaluations;
    ChargeCpu();
  }
  return util::Ok();
}

util::Status Pipeline::RateAfterLadder(long long generation) {
  auto rated = services_.rate_run(run_);
  if (!rated) return Fail(util::ErrorKind::kFailure, rated.error());
  if (!rated.value().chart_note.empty()) Log("  " + rated.value().chart_note);
  Log("ratings after gen " + std::to_string(generation) + " (random = 0; best is gen " +
      std::to_string(state_.best_generation) + "):");
  for (const std::string& l : rated.value().table) Log("  " + l);
  return util::Ok();
}

}  // namespace veletas::pipeline::internal
