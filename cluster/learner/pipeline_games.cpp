#include "cluster/learner/pipeline_games.h"

#include <fmt/format.h>
#include <atomic>
#include <climits>
#include <filesystem>
#include <random>

#include "cluster/transport/keys.h"
#include "model/base/checkpoint_file.h"
#include "selfplay/selfplay_engine.h"
#include "util/names.h"
#include "util/text.h"

namespace veletas::cluster {
namespace {

namespace fs = std::filesystem;

// Self-play in this process for a collection: the best network, endless, games to `sink`.
util::Status LocalSelfplay(const config::Config& c, const PipelineGames::LoadNetwork& load,
                           const std::string& checkpoint,
                           const std::function<util::Status(selfplay::FinishedGame&&)>& sink,
                           const std::atomic<bool>& stop) {
  auto evaluator = load(checkpoint);
  if (!evaluator) return evaluator.error_value();
  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = INT64_MAX;
  job.generation = std::random_device()();  // seeds apart from every earlier session's
  selfplay::SelfplayHooks hooks;
  hooks.stop = &stop;
  hooks.on_game = sink;
  auto result =
      selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, *evaluator.value(), job, hooks);
  if (!result) return result.error_value();
  return util::Ok();
}

std::string Counts(const IngestCounters& n) {
  std::string s = std::to_string(n.duplicates) + " duplicates, " + std::to_string(n.stale) +
                  " stale, " + std::to_string(n.rejected) + " rejected";
  std::string reasons;
  for (const auto& [reason, count] : n.rejected_by_reason) {
    reasons += (reasons.empty() ? "" : ", ") + reason + " " + std::to_string(count);
  }
  return reasons.empty() ? s : s + " (" + reasons + ")";
}

}  // namespace

util::Result<std::unique_ptr<PipelineGames>> PipelineGames::Start(const config::Config& c,
                                                                  const std::string& run_dir,
                                                                  Log log, LoadNetwork load,
                                                                  CheckpointLoader check) {
  auto redis = MakeRedisOptions(c.cluster.redis, c.cluster.auth_file, "veletas-learner");
  if (!redis) return util::Prefixed(redis.error_value(), c.source + ": cluster: ");
  std::error_code ec;
  const std::string run = !c.cluster.run.empty()
                              ? c.cluster.run
                              : fs::weakly_canonical(run_dir, ec).filename().string();
  if (util::Status s = util::ValidateName(run, "cluster run name", kMaxNameLength); !s.ok()) {
    return util::Prefixed(s.error_value(), "set cluster.run in " + c.source + ": ");
  }
  std::unique_ptr<PipelineGames> games(new PipelineGames(c, std::move(log), std::move(load)));
  LearnerOptions o;
  o.redis = redis.value();
  o.run = run;
  o.cluster = c.cluster;
  o.config_text = c.resolved_yaml;
  o.run_dir = run_dir;
  o.log = games->log_;
  o.network_bytes = model::ReadCheckpointWithoutOptimizer;
  o.load_network = std::move(check);
  o.search = c.search;
  o.selfplay = c.selfplay;
  auto learner = Learner::Start(o);
  if (!learner) return learner.error_value();
  games->learner_ = std::move(learner.value());
  games->log_("  cluster: serving run \"" + run + "\" at redis " + o.redis.endpoint.ToString() +
              " (workers: veletas worker --redis " + c.cluster.redis + " --run " + run + ")");
  return games;
}

util::Status PipelineGames::NewBest(long long generation, const std::string& checkpoint) {
  auto id = learner_->Publish(checkpoint, generation, true);
  if (!id) return id.error_value();
  return util::Ok();
}

util::Result<PipelineGames::SelfplayResult> PipelineGames::Selfplay(const SelfplayRequest& r) {
  CollectRequest req;
  for (size_t i = 0; i < r.bests.size(); ++i) {
    if (static_cast<int>(i) > c_.cluster.accept_previous_networks) break;
    auto id = learner_->Publish(r.bests[i].second, r.bests[i].first, i == 0);
    if (!id) return id.error_value();
    req.accepted.insert(id.value());
  }
  auto known = learner_->Networks();
  if (!known) return known.error_value();
  req.known = known.value();
  req.known.insert(req.accepted.begin(), req.accepted.end());
  if (util::Status s = learner_->AddEarlierGames(r.earlier_dirs); !s.ok()) return s.error_value();
  req.dir.dir = r.dir;
  req.dir.games = r.games;
  req.dir.games_per_file = c_.selfplay.games_per_file;
  req.dir.rules = c_.game.rules;
  req.dir.size = c_.game.size;
  if (c_.cluster.local_selfplay) {
    const std::string best = r.bests.front().second;
    req.local = [this, best](const std::function<util::Status(selfplay::FinishedGame &&)>& sink,
                             const std::atomic<bool>& stop) {
      return LocalSelfplay(c_, load_, best, sink, stop);
    };
  }
  req.progress = [&](const CollectProgress& p) {
    if (!r.progress) return;
    r.progress(fmt::format("{}/{} games from {} workers ({} local), {} rejected", p.games, p.target,
                           p.workers, p.local_games, learner_->Totals().rejected));
  };
  auto report = learner_->CollectSelfplay(req);
  if (!report) return report.error_value();
  const CollectReport& rep = report.value();
  for (const std::string& note : rep.notes) log_("  self-play: " + note);
  SelfplayResult out;
  out.games = rep.totals.games;
  out.resumed = rep.resumed;
  out.samples = rep.samples;
  std::string workers;
  for (const auto& [w, n] : rep.games_by_worker) {
    workers += (workers.empty() ? "" : ", ") + w + " " + std::to_string(n);
  }
  std::string copies;
  for (const auto& [w, n] : rep.duplicates_by_worker) {
    copies += (copies.empty() ? "" : ", ") + w + " " + std::to_string(n);
  }
  if (!copies.empty()) log_("  self-play: duplicates by worker: " + copies);
  for (const auto& [w, n] : rep.held_by_worker) {
    log_("  self-play: worker " + w + ": " + std::to_string(n) +
         " games over its share wait for the next generation");
  }
  const SpotCheckTotals& spot = learner_->SpotChecks();
  const std::string checks = fmt::format(
      "spot checks so far: {} positions and {} resignations, {} failed, {} not reproducible "
      "here, {:.1f}s, largest differences {:.4f} (policy) {:.4f} (value){}",
      spot.positions, spot.resignations, spot.failed, spot.unreproducible, spot.seconds,
      spot.max_policy_tv, spot.max_value_error,
      spot.resignations > 0 ? fmt::format(", largest resigning value {:.3f}", spot.max_resign_value)
                            : "");
  out.line = fmt::format(
      "{} games by gen {} ({} resumed) from {} workers{}, {} samples, {}, {:.1f} games/s, {}; {}",
      out.games, r.bests.front().first, out.resumed, rep.games_by_worker.size(),
      workers.empty() ? "" : " (" + workers + ")", out.samples, Counts(rep.totals.counters),
      rep.totals.seconds > 0 ? static_cast<double>(out.games - out.resumed) / rep.totals.seconds
                             : 0.0,
      util::FormatDuration(rep.totals.seconds), checks);
  return out;
}

}  // namespace veletas::cluster
