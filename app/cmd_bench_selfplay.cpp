// `veletas bench-selfplay`: how much of the network's speed self-play uses. In one run it
// measures the network's evaluations per second during self-play and the network alone at
// the same batch size (model::NnBench::EvalRate, the bench-nn measurement), interleaved:
// every few seconds the self-play network thread stops to measure the network alone, on the
// same thread and under the same machine load, so that other load on the machine affects
// both figures alike. Reports their ratio (the goal: at least 0.85), how busy the network
// was, batch fill, cache hits and games per hour.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/command.h"
#include "app/config.h"
#include "app/load_evaluator.h"
#include "model/nn_bench.h"
#include "rules/notation.h"
#include "selfplay/selfplay_engine.h"
#include "util/clock.h"

namespace veletas::app {
namespace {

using Clock = std::chrono::steady_clock;

// The self-play network, timed, with measurements of the network alone (NnBench) run on
// the same thread every `period` seconds before a self-play batch. Self-play between two
// such measurements is a segment, compared with the measurements on either side of it.
// Called from the batching front end's thread only; Get() may be called from any thread.
class InterleavedBench final : public search::Evaluator {
 public:
  struct Segment {
    double start = 0;      // seconds since construction
    double seconds = 0;    // self-play wall time
    double positions = 0;  // positions the network evaluated for self-play
  };
  struct Totals {
    double busy = 0;            // seconds in self-play batches
    double alone = 0;           // seconds spent measuring the network alone (self-play waits)
    std::vector<double> rates;  // evaluations/s of each measurement of the network alone
    // segments[i] lies between rates[i] and rates[i + 1].
    std::vector<Segment> segments;
  };

  InterleavedBench(search::Evaluator& inner, model::NnBench& bench, int batch, double period)
      : inner_(inner),
        bench_(bench),
        batch_(batch),
        period_(period),
        created_(Clock::now()),
        next_(created_) {}

  void Evaluate(std::span<const rules::Position> positions,
                std::span<search::EvalOutput> out) override {
    if (Clock::now() >= next_) {
      const auto start = Clock::now();
      const double rate = bench_.EvalRate(batch_);
      std::lock_guard<std::mutex> lock(mutex_);
      if (!totals_.rates.empty()) {
        totals_.segments.push_back(
            {std::chrono::duration<double>(segment_start_ - created_).count(),
             std::chrono::duration<double>(start - segment_start_).count(), segment_positions_});
      }
      totals_.alone += util::SecondsSince(start);
      totals_.rates.push_back(rate);
      segment_start_ = Clock::now();
      segment_positions_ = 0;
      next_ = segment_start_ +
              std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(period_));
    }
    const auto start = Clock::now();
    inner_.Evaluate(positions, out);
    const double took = util::SecondsSince(start);
    std::lock_guard<std::mutex> lock(mutex_);
    totals_.busy += took;
    segment_positions_ += static_cast<double>(positions.size());
  }

  Totals Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return totals_;
  }

 private:
  search::Evaluator& inner_;
  model::NnBench& bench_;
  const int batch_;
  const double period_;
  const Clock::time_point created_;
  Clock::time_point next_;
  Clock::time_point segment_start_;
  double segment_positions_ = 0;
  mutable std::mutex mutex_;
  Totals totals_;
};

// Median of `v` (0 when empty).
double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The network of self-play: checkpoint `ckpt` (one read), or without one a fresh network of
// the config's architecture (the same speed as any weights).
util::Result<std::unique_ptr<model::TorchEvaluator>> SelfplayNetwork(
    const std::optional<std::string>& ckpt, const Config& c) {
  if (!ckpt) return model::TorchEvaluator::Fresh(c.model, 1);
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

int RunBenchSelfplay(const BenchSelfplayArgs& args) {
  auto loaded = LoadConfig(args.config);
  if (!loaded) {
    std::cerr << loaded.error() << "\n";
    return 2;
  }
  Config c = loaded.value();
  c.selfplay.threads = args.threads.value_or(c.selfplay.threads);
  c.selfplay.games_in_flight = args.in_flight.value_or(c.selfplay.games_in_flight);
  c.selfplay.leaves_per_search = args.leaves.value_or(c.selfplay.leaves_per_search);
  c.evaluator.max_batch = args.max_batch.value_or(c.evaluator.max_batch);
  c.evaluator.max_wait_us = args.max_wait_us.value_or(c.evaluator.max_wait_us);
  c.evaluator.cache_size = args.cache_size.value_or(c.evaluator.cache_size);
  c.model.threads = args.nn_threads.value_or(c.model.threads);
  const int batch = c.evaluator.max_batch;

  // The network alone: a fresh network of the config's architecture (same speed as any
  // weights) on positions from random games.
  model::NnBenchOptions o;
  o.net = c.model;
  o.rules = c.game.rules;
  o.size = c.game.size;
  o.min_seconds = 1.0;
  auto bench = model::NnBench::Create(o);
  if (!bench) {
    std::cerr << "veletas bench-selfplay: " << bench.error() << "\n";
    return 1;
  }
  // The network of self-play: the model, or a fresh network.
  auto evaluator = SelfplayNetwork(args.model, c);
  if (!evaluator) {
    std::cerr << "veletas bench-selfplay: " << evaluator.error() << "\n";
    return evaluator.exit_code();
  }

  InterleavedBench timed(*evaluator.value(), *bench.value(), batch, /*period=*/4.0);
  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = 1'000'000'000;  // until stopped
  std::atomic<bool> stop{false};
  const double warmup = std::min(10.0, args.seconds / 5);
  selfplay::SelfplayStats warm;
  InterleavedBench::Totals warm_totals;
  bool have_warm = false;
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = 0.25;
  hooks.stop = &stop;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    if (!have_warm && s.seconds >= warmup) {
      warm = s;
      warm_totals = timed.Get();
      have_warm = true;
    }
    if (s.seconds >= args.seconds) stop = true;
  };
  const auto result = selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, timed, job, hooks);
  if (!result) {
    std::cerr << "veletas bench-selfplay: " << result.error() << "\n";
    return 1;
  }
  const selfplay::SelfplayStats& end = result.value();
  const InterleavedBench::Totals totals = timed.Get();

  // Self-play figures over the window after the warm-up, without the time the network was
  // measured alone.
  const double window = end.seconds - warm.seconds - (totals.alone - warm_totals.alone);
  const double busy = totals.busy - warm_totals.busy;
  const double positions = static_cast<double>(end.network_positions - warm.network_positions);
  const double net_rate = window > 0 ? positions / window : 0;
  const uint64_t batches = end.batches - warm.batches;
  const double fill = batches > 0 ? positions / static_cast<double>(batches) / batch : 0;
  const uint64_t asked = end.evaluations - warm.evaluations;
  const double hits = asked > 0 ? static_cast<double>(end.cache_hits - warm.cache_hits) / asked : 0;
  const double searches_rate = window > 0 ? (end.searches - warm.searches) / window : 0;
  double alone = 0;
  for (double r : totals.rates) alone += r;
  alone = totals.rates.empty() ? 0 : alone / static_cast<double>(totals.rates.size());
  const auto [lo, hi] = std::minmax_element(totals.rates.begin(), totals.rates.end());

  std::printf("bench-selfplay: %s, network %d blocks x %d channels on %s (%d intra-op threads)\n",
              rules::GameName(c.game.rules, c.game.size).c_str(), c.model.blocks, c.model.channels,
              bench.value()->DeviceName().c_str(), bench.value()->Threads());
  std::printf(
      "self-play: %d threads x %d games, %d leaves per search, %s %d/%d simulations "
      "(full p=%.2f), batch %d, max wait %d us, cache %d\n",
      c.selfplay.threads, c.selfplay.games_in_flight, c.selfplay.leaves_per_search,
      c.search.algorithm == search::Algorithm::kGumbel ? "gumbel" : "puct",
      c.selfplay.full_simulations, c.selfplay.cheap_simulations, c.selfplay.full_search_probability,
      batch, c.evaluator.max_wait_us, c.evaluator.cache_size);
  std::printf(
      "self-play measured over %.1f s after a %.1f s warm-up; the network alone %zu "
      "times in between\n\n",
      window, warm.seconds, totals.rates.size());
  // Each self-play segment after the warm-up against the mean of the measurements of the
  // network alone just before and after it: insensitive to slow changes of other load.
  std::vector<double> paired;
  const double warm_start = warm.seconds;
  for (size_t i = 0; i + 1 < totals.rates.size() && i < totals.segments.size(); ++i) {
    const InterleavedBench::Segment& seg = totals.segments[i];
    const double reference = (totals.rates[i] + totals.rates[i + 1]) / 2;
    if (seg.start < warm_start || seg.seconds <= 0 || reference <= 0) continue;
    paired.push_back(seg.positions / seg.seconds / reference);
  }
  std::printf("network alone, batch %-4d        %10.0f evaluations/s  (mean; %.0f .. %.0f)\n",
              batch, alone, totals.rates.empty() ? 0.0 : *lo, totals.rates.empty() ? 0.0 : *hi);
  std::printf("network during self-play         %10.0f evaluations/s\n", net_rate);
  std::printf("ratio                            %10.3f  (goal >= 0.85)\n",
              alone > 0 ? net_rate / alone : 0.0);
  std::printf(
      "ratio, median of %2zu segments     %10.3f  (each against the network alone just "
      "before and after it)\n",
      paired.size(), Median(paired));
  std::printf("network busy during self-play    %9.1f%%  (%.0f evaluations/s while busy)\n",
              window > 0 ? 100.0 * busy / window : 0.0, busy > 0 ? positions / busy : 0.0);
  std::printf("mean batch fill                  %9.1f%%  (%.1f of %d)\n", 100.0 * fill,
              fill * batch, batch);
  std::printf("evaluations asked by searches    %10.0f /s (cache hits %.1f%%)\n",
              window > 0 ? asked / window : 0.0, 100.0 * hits);
  std::printf("searches (decisions)             %10.1f /s\n", searches_rate);
  const int64_t searched = end.full_decisions + end.cheap_decisions;
  if (end.games_finished > 0 && searched > 0) {
    const double per_game = static_cast<double>(searched) / end.games_finished;
    std::printf(
        "games per hour                   %10.0f  (%.1f searches per game, %lld games "
        "finished)\n",
        3600.0 * searches_rate / per_game, per_game, static_cast<long long>(end.games_finished));
  } else {
    std::printf(
        "games per hour                          n/a  (no game finished: run longer or "
        "with fewer games in flight)\n");
  }
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
