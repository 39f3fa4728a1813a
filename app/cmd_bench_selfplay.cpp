// The parts of `veletas bench` that play self-play with a config's network:
// - `bench selfplay`: how much of the network's speed self-play uses, the network's
//   evaluations/s in self-play against the network alone at the same batch size
//   (model::NnBench::EvalRate, the `bench nn` measurement), interleaved (selfplay/selfplay_bench.h
//   RunSelfplayBench): their ratio (the goal: at least 0.85), how busy the network was, batch fill,
//   cache hits, games per hour;
// - `bench spot-check`: the false-alarm rate and the cost of the cluster's spot checks on
//   honest self-play (selfplay/spot_check_bench.h): self-play with the network loaded as a
//   worker loads it, checks with a second load as the learner loads it.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "config/config.h"
#include "model/nn_bench.h"
#include "selfplay/selfplay_bench.h"
#include "selfplay/spot_check_bench.h"
#include "util/clock.h"

namespace veletas::app {
namespace {

// The self-play of config `c`.
selfplay::BenchSelfplay BenchSelfplayOf(const config::Config& c) {
  return {c.selfplay, c.search, c.evaluator, c.game.rules, c.game.size};
}

// The network of self-play: checkpoint `ckpt` (one read), or without one a fresh network of
// the config's architecture (the same speed as any weights).
util::Result<std::unique_ptr<model::NetworkEvaluator>> SelfplayNetwork(
    const std::optional<std::string>& ckpt, const config::Config& c) {
  if (!ckpt) return model::NetworkEvaluator::Fresh(c.model, 1);
  auto loaded = LoadConfigNetwork(*ckpt, c);
  if (!loaded) return loaded.error_value();
  return std::move(loaded.value().evaluator);
}

// The options: the config, and overrides of its self-play, evaluator and model settings.
struct BenchSelfplayArgs {
  std::string config;
  std::optional<std::string> model;
  double seconds = 60.0;
  std::optional<int> threads, in_flight, leaves, max_batch, max_wait_us, cache_size, nn_threads;
};

// Declares `option` overriding a config value in [lo, hi].
void AddOverride(CLI::App& cmd, const std::string& name, std::optional<int>& value,
                 const std::string& help, int lo, int hi) {
  cmd.add_option(name, value, help + " (default: the config's)")->check(CLI::Range(lo, hi));
}

// The config with the command line's overrides.
util::Result<config::Config> BenchConfig(const BenchSelfplayArgs& args) {
  auto loaded = config::LoadConfig(args.config);
  if (!loaded) return loaded.error_value();
  config::Config c = loaded.value();
  c.selfplay.threads = args.threads.value_or(c.selfplay.threads);
  c.selfplay.games_in_flight = args.in_flight.value_or(c.selfplay.games_in_flight);
  c.selfplay.leaves_per_search = args.leaves.value_or(c.selfplay.leaves_per_search);
  c.evaluator.max_batch = args.max_batch.value_or(c.evaluator.max_batch);
  c.evaluator.max_wait_us = args.max_wait_us.value_or(c.evaluator.max_wait_us);
  c.evaluator.cache_size = args.cache_size.value_or(c.evaluator.cache_size);
  c.model.threads = args.nn_threads.value_or(c.model.threads);
  return c;
}

int RunBenchSelfplay(const BenchSelfplayArgs& args) {
  auto config = BenchConfig(args);
  if (!config) return CommandError("bench selfplay", config.error_value());
  const config::Config& c = config.value();
  // The network alone: a fresh network of the config's architecture (same speed as any
  // weights) on positions from random games.
  auto bench = model::NnBench::Create(
      {.net = c.model, .rules = c.game.rules, .size = c.game.size, .min_seconds = 1.0});
  if (!bench) return CommandError("bench selfplay", {bench.error(), util::ErrorKind::kFailure});
  auto evaluator = SelfplayNetwork(args.model, c);
  if (!evaluator) return CommandError("bench selfplay", evaluator.error_value());
  model::NnBench& alone = *bench.value();
  const int batch = c.evaluator.max_batch;
  const std::string network =
      fmt::format("{} blocks x {} channels on {} ({} intra-op threads)", c.model.blocks,
                  c.model.channels, alone.DeviceName(), alone.Threads());
  util::Status s = selfplay::RunSelfplayBench(
      BenchSelfplayOf(c), args.seconds, *evaluator.value(),
      [&alone, batch] { return alone.EvalRate(batch); }, network, std::cout);
  if (!s.ok()) return CommandError("bench selfplay", s.error_value());
  return 0;
}

CommandRun SetupBenchSelfplay(CLI::App& cmd) {
  auto o = std::make_shared<BenchSelfplayArgs>();
  AddRequiredConfig(cmd, o->config, "config of the self-play measured");
  cmd.add_option("--model", o->model, "network checkpoint (default: fresh weights, same speed)")
      ->type_name("CKPT");
  cmd.add_option("--seconds", o->seconds, "measuring time")->check(CLI::Range(5.0, 86400.0));
  AddOverride(cmd, "--threads", o->threads, "self-play threads", 1, 256);
  AddOverride(cmd, "--games-in-flight", o->in_flight, "games in flight", 1, 65536);
  AddOverride(cmd, "--leaves", o->leaves, "leaves per search and batch", 1, 1024);
  AddOverride(cmd, "--max-batch", o->max_batch, "largest network batch", 2, 65536);
  AddOverride(cmd, "--max-wait-us", o->max_wait_us, "microseconds a batch waits to fill", 0,
              10'000'000);
  AddOverride(cmd, "--cache-size", o->cache_size, "evaluation cache entries", 0, 1 << 24);
  AddOverride(cmd, "--nn-threads", o->nn_threads, "intra-op threads of the network", 0, 256);
  return [o] { return RunBenchSelfplay(*o); };
}

struct BenchSpotCheckArgs {
  std::string config;
  std::string model;
  int64_t positions = 10'000;
  double fraction = 0.01;
  std::optional<std::string> check_precision;  // the learner's, when it differs
};

int RunBenchSpotCheck(const BenchSpotCheckArgs& args) {
  auto config = config::LoadConfig(args.config);
  if (!config) return CommandError("bench spot-check", config.error_value());
  const config::Config& c = config.value();
  auto worker = LoadConfigNetwork(args.model, c);
  if (!worker) return CommandError("bench spot-check", worker.error_value());
  // As the learner loads it: the worker's precision, unless told otherwise.
  const model::InferencePrecision precision =
      args.check_precision ? *model::ParseInferencePrecision(*args.check_precision)  // checked
                           : worker.value().evaluator->Precision();
  const auto load_start = util::SteadyClock::now();
  auto learner = LoadSpotCheckNetwork(args.model, c, precision);
  if (!learner) return CommandError("bench spot-check", learner.error_value());
  if (learner.value() == nullptr) {
    return CommandError("bench spot-check",
                        {std::string("this machine cannot run the network at precision ") +
                             model::InferencePrecisionName(precision),
                         util::ErrorKind::kFailure});
  }
  const selfplay::SpotCheckBenchSetup setup{
      .play = BenchSelfplayOf(c),
      .positions = args.positions,
      .tolerance = {c.cluster.spot_check_policy_tv, c.cluster.spot_check_value},
      .resign = selfplay::ResignCheckSettingsOf(c.selfplay, c.cluster.spot_check_resign_margin),
      .fraction = args.fraction,
      .load_seconds = util::SecondsSince(load_start)};
  util::Status s =
      selfplay::RunSpotCheckBench(setup, *worker.value().evaluator, *learner.value(), std::cout);
  if (!s.ok()) return CommandError("bench spot-check", s.error_value());
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

VELETAS_CLI_PART(bench_selfplay, "bench", "selfplay",
                 "network evaluations/s in self-play against the network alone, batch fill, "
                 "games per hour",
                 SetupBenchSelfplay);

VELETAS_CLI_PART(bench_spot_check, "bench", "spot-check",
                 "false alarms of the cluster's spot checks on honest self-play and the cost of "
                 "a check",
                 SetupBenchSpotCheck);

}  // namespace veletas::app
