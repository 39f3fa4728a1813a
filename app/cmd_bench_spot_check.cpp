// `veletas bench-spot-check`: the false-alarm rate and the cost of the cluster's spot checks
// (selfplay/spot_check.h). Self-play games are played with the network as a worker plays
// them (its own load of the checkpoint), then every recorded position is checked as the
// learner checks it, with a second, independent load of the same checkpoint. Prints the
// positions checked, the false alarms (the goal: none), the largest differences found
// against the tolerances, and the time a check takes against the self-play time of one
// recorded position.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "config/config.h"
#include "selfplay/selfplay_bench.h"
#include "selfplay/selfplay_engine.h"
#include "util/clock.h"

namespace veletas::app {
namespace {

struct BenchSpotCheckArgs {
  std::string config;
  std::string model;
  int64_t positions = 10'000;
  double fraction = 0.01;
  std::optional<std::string> check_precision;  // the learner's, when it differs
};

// One load of the checkpoint as the config runs it.
util::Result<std::unique_ptr<model::NetworkEvaluator>> Load(const std::string& ckpt,
                                                            const config::Config& c) {
  auto loaded = LoadConfigNetwork(ckpt, c);
  if (!loaded) return loaded.error_value();
  return std::move(loaded.value().evaluator);
}

void Print(const selfplay::SpotCheckMeasure& m, double selfplay_seconds, int64_t recorded,
           const config::Config& c, double fraction) {
  const double per_check = m.seconds / static_cast<double>(std::max<int64_t>(m.positions, 1));
  const double per_position =
      selfplay_seconds / static_cast<double>(std::max<int64_t>(recorded, 1));
  std::cout << fmt::format(
      "checked {} positions of {} recorded: {} false alarms{}\n"
      "largest differences: policy target {:.5f} (tolerance {:.3f}), value of a single-visit "
      "action {:.5f} (tolerance {:.3f})\n"
      "a check: {:.2f} ms, {:.1f} network positions; self-play: {:.2f} ms per recorded position\n"
      "at spot_check_fraction {}: {:.2f}% of the workers' self-play time, spent by the learner\n",
      m.positions, recorded, m.failures,
      m.failures > 0 ? " (first: " + m.first_failure + ")" : std::string(), m.max_policy_tv,
      c.cluster.spot_check_policy_tv, m.max_value_error, c.cluster.spot_check_value,
      1e3 * per_check,
      static_cast<double>(m.evaluations) / static_cast<double>(std::max<int64_t>(m.positions, 1)),
      1e3 * per_position, fraction, 100.0 * fraction * per_check / per_position);
  const double resign_limit = c.selfplay.resign_threshold + c.cluster.spot_check_resign_margin;
  std::cout << fmt::format(
      "checked {} resignations: {} false alarms; largest value for the resigning player "
      "{:.3f} (at most {:.3f}: threshold {:.2f} + margin {:.2f}); {:.2f} ms a check\n",
      m.resignations, m.resign_failures, m.resignations > 0 ? m.max_resign_value : 0.0,
      resign_limit, c.selfplay.resign_threshold, c.cluster.spot_check_resign_margin,
      1e3 * m.resign_seconds / static_cast<double>(std::max<int64_t>(m.resignations, 1)));
}

int RunBenchSpotCheck(const BenchSpotCheckArgs& args) {
  auto config = config::LoadConfig(args.config);
  if (!config) return CommandError("bench-spot-check", config.error_value());
  const config::Config& c = config.value();
  auto worker = Load(args.model, c);
  if (!worker) return CommandError("bench-spot-check", worker.error_value());
  // As the learner loads it: the worker's precision, unless told otherwise.
  const std::string precision = args.check_precision.value_or(worker.value()->PrecisionName());
  const auto load_start = util::SteadyClock::now();
  auto learner = LoadSpotCheckNetwork(args.model, c, precision);
  if (!learner) return CommandError("bench-spot-check", learner.error_value());
  if (learner.value() == nullptr) {
    return CommandError("bench-spot-check",
                        {"this machine cannot run the network at precision " + precision,
                         util::ErrorKind::kFailure});
  }
  const double load_seconds = util::SecondsSince(load_start);
  std::vector<selfplay::FinishedGame> games;
  int64_t recorded = 0;
  const auto start = util::SteadyClock::now();
  for (uint64_t round = 1; recorded < args.positions; ++round) {
    selfplay::SelfplayJob job;
    job.rules = c.game.rules;
    job.size = c.game.size;
    job.games = std::max(8, c.selfplay.games_in_flight * c.selfplay.threads);
    job.generation = round;
    auto played =
        selfplay::PlayGamesInMemory(c.selfplay, c.search, c.evaluator, *worker.value(), job);
    if (!played) return CommandError("bench-spot-check", played.error_value());
    for (auto& g : played.value()) {
      recorded += static_cast<int64_t>(g.samples.size());
      games.push_back(std::move(g));
    }
  }
  const double selfplay_seconds = util::SecondsSince(start);
  selfplay::SpotCheckTolerance tolerance;
  tolerance.policy_tv = c.cluster.spot_check_policy_tv;
  tolerance.value = c.cluster.spot_check_value;
  const selfplay::SpotCheckMeasure m = selfplay::MeasureSpotChecks(
      games, c.game.rules, c.game.size, c.search, *learner.value(), tolerance,
      selfplay::ResignCheckSettingsOf(c.selfplay, c.cluster.spot_check_resign_margin));
  Print(m, selfplay_seconds, recorded, c, args.fraction);
  std::cout << fmt::format("loading the network for the checks: {:.2f} s (once per network)\n",
                           load_seconds);
  return 0;
}

CommandRun SetupBenchSpotCheck(CLI::App& cmd) {
  auto o = std::make_shared<BenchSpotCheckArgs>();
  AddRequiredConfig(cmd, o->config, "config of the self-play checked");
  cmd.add_option("--model", o->model, "network checkpoint")->required()->type_name("CKPT");
  cmd.add_option("--positions", o->positions, "recorded positions to check")
      ->check(CLI::Range(int64_t{1}, int64_t{10'000'000}));
  cmd.add_option("--fraction", o->fraction, "spot-check fraction the cost is given for")
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--check-precision", o->check_precision,
                 "the learner's inference precision, when it differs from the workers' "
                 "(model.inference_precision)")
      ->check(CLI::IsMember(model::kInferencePrecisions));
  return [o] { return RunBenchSpotCheck(*o); };
}

}  // namespace

VELETAS_CLI_COMMAND(bench_spot_check, "bench-spot-check",
                    "the cluster's spot checks on honest self-play: false alarms and the cost of a "
                    "check against self-play",
                    SetupBenchSpotCheck);

}  // namespace veletas::app
