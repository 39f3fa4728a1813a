// `veletas bench-selfplay`: how much of the network's speed self-play uses. In one run it
// measures the network's evaluations per second during self-play and the network alone at
// the same batch size (model::NnBench::EvalRate, the bench-nn measurement), interleaved:
// every few seconds the self-play network thread stops to measure the network alone, on the
// same thread and under the same machine load, so that other load on the machine affects
// both figures alike. Reports their ratio (the goal: at least 0.85), how busy the network
// was, batch fill, cache hits and games per hour.
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/command.h"
#include "app/config_network.h"
#include "config/config.h"
#include "model/nn_bench.h"
#include "rules/notation.h"
#include "selfplay/selfplay_bench.h"

namespace veletas::app {
namespace {

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

// The network alone: a fresh network of the config's architecture (same speed as any
// weights) on positions from random games.
util::Result<std::unique_ptr<model::NnBench>> NetworkAlone(const config::Config& c) {
  model::NnBenchOptions o;
  o.net = c.model;
  o.rules = c.game.rules;
  o.size = c.game.size;
  o.min_seconds = 1.0;
  return model::NnBench::Create(o);
}

int RunBenchSelfplay(const BenchSelfplayArgs& args) {
  auto config = BenchConfig(args);
  if (!config) return CommandError("bench-selfplay", config.error_value());
  const config::Config& c = config.value();
  auto bench = NetworkAlone(c);
  if (!bench) return CommandError("bench-selfplay", {bench.error(), util::ErrorKind::kFailure});
  // The network of self-play: the model, or a fresh network.
  auto evaluator = SelfplayNetwork(args.model, c);
  if (!evaluator) return CommandError("bench-selfplay", evaluator.error_value());
  model::NnBench& alone = *bench.value();
  const int batch = c.evaluator.max_batch;
  selfplay::InterleavedBench timed(
      *evaluator.value(), [&alone, batch] { return alone.EvalRate(batch); }, /*period=*/4.0);
  auto measured = selfplay::MeasureSelfplay(c.selfplay, c.search, c.evaluator, c.game.rules,
                                            c.game.size, timed, args.seconds);
  if (!measured) return CommandError("bench-selfplay", measured.error_value());
  const std::string network =
      fmt::format("{} blocks x {} channels on {} ({} intra-op threads)", c.model.blocks,
                  c.model.channels, alone.DeviceName(), alone.Threads());
  std::cout << selfplay::BenchSetupText(rules::GameName(c.game.rules, c.game.size), network,
                                        c.selfplay, c.search, c.evaluator, measured.value());
  selfplay::PrintFigures(selfplay::ComputeFigures(measured.value(), batch), measured.value().end,
                         batch, std::cout);
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

}  // namespace

VELETAS_CLI_COMMAND(bench_selfplay, "bench-selfplay",
                    "self-play speed: network evaluations/s during self-play against the network "
                    "alone at the same batch size (interleaved), batch fill, games per hour",
                    SetupBenchSelfplay);

}  // namespace veletas::app
