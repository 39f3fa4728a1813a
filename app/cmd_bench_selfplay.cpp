// `veletas bench-selfplay`: how much of the network's speed self-play uses. In one run it
// measures the network's evaluations per second during self-play and the network alone at
// the same batch size (model::NnBench::EvalRate, the bench-nn measurement), interleaved:
// every few seconds the self-play network thread stops to measure the network alone, on the
// same thread and under the same machine load, so that other load on the machine affects
// both figures alike. Reports their ratio (the goal: at least 0.85), how busy the network
// was, batch fill, cache hits and games per hour.
#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <chrono>
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

// The config with the command line's overrides.
util::Result<Config> BenchConfig(const BenchSelfplayArgs& args) {
  auto loaded = LoadConfig(args.config);
  if (!loaded) return loaded.error_value();
  Config c = loaded.value();
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
util::Result<std::unique_ptr<model::NnBench>> NetworkAlone(const Config& c) {
  model::NnBenchOptions o;
  o.net = c.model;
  o.rules = c.game.rules;
  o.size = c.game.size;
  o.min_seconds = 1.0;
  return model::NnBench::Create(o);
}

// Self-play statistics and network timings at the end of the warm-up and at the end.
struct Measured {
  selfplay::SelfplayStats warm, end;
  InterleavedBench::Totals warm_totals, totals;
};

// Self-play on `timed` until `seconds` have passed; the warm-up is the first fifth (at most
// 10 s).
util::Result<Measured> MeasureSelfplay(const Config& c, InterleavedBench& timed, double seconds) {
  selfplay::SelfplayJob job;
  job.rules = c.game.rules;
  job.size = c.game.size;
  job.games = 1'000'000'000;  // until stopped
  std::atomic<bool> stop{false};
  const double warmup = std::min(10.0, seconds / 5);
  Measured m;
  bool have_warm = false;
  selfplay::SelfplayHooks hooks;
  hooks.progress_seconds = 0.25;
  hooks.stop = &stop;
  hooks.progress = [&](const selfplay::SelfplayStats& s) {
    if (!have_warm && s.seconds >= warmup) {
      m.warm = s;
      m.warm_totals = timed.Get();
      have_warm = true;
    }
    if (s.seconds >= seconds) stop = true;
  };
  auto result = selfplay::RunSelfplay(c.selfplay, c.search, c.evaluator, timed, job, hooks);
  if (!result) return util::Error{result.error(), util::ErrorKind::kFailure};
  m.end = result.value();
  m.totals = timed.Get();
  return m;
}

// The figures of the window after the warm-up, without the time the network was measured
// alone.
struct Figures {
  double window = 0, busy = 0, positions = 0, net_rate = 0, fill = 0, asked = 0, hits = 0;
  double searches_rate = 0;
  double alone = 0, alone_low = 0, alone_high = 0;  // the network alone: mean and range
  // Each self-play segment after the warm-up against the mean of the measurements of the
  // network alone just before and after it: insensitive to slow changes of other load.
  std::vector<double> paired;
};

Figures ComputeFigures(const Measured& m, int batch) {
  const selfplay::SelfplayStats &warm = m.warm, &end = m.end;
  const InterleavedBench::Totals& totals = m.totals;
  Figures f;
  f.window = end.seconds - warm.seconds - (totals.alone - m.warm_totals.alone);
  f.busy = totals.busy - m.warm_totals.busy;
  f.positions = static_cast<double>(end.network_positions - warm.network_positions);
  f.net_rate = f.window > 0 ? f.positions / f.window : 0;
  const uint64_t batches = end.batches - warm.batches;
  f.fill = batches > 0 ? f.positions / static_cast<double>(batches) / batch : 0;
  const uint64_t asked = end.evaluations - warm.evaluations;
  f.asked = static_cast<double>(asked);
  f.hits = asked > 0 ? static_cast<double>(end.cache_hits - warm.cache_hits) / f.asked : 0;
  f.searches_rate = f.window > 0 ? (end.searches - warm.searches) / f.window : 0;
  if (!totals.rates.empty()) {
    for (double r : totals.rates) f.alone += r;
    f.alone /= static_cast<double>(totals.rates.size());
    const auto [lo, hi] = std::minmax_element(totals.rates.begin(), totals.rates.end());
    f.alone_low = *lo;
    f.alone_high = *hi;
  }
  for (size_t i = 0; i + 1 < totals.rates.size() && i < totals.segments.size(); ++i) {
    const InterleavedBench::Segment& seg = totals.segments[i];
    const double reference = (totals.rates[i] + totals.rates[i + 1]) / 2;
    if (seg.start < warm.seconds || seg.seconds <= 0 || reference <= 0) continue;
    f.paired.push_back(seg.positions / seg.seconds / reference);
  }
  return f;
}

void PrintSetup(const Config& c, const model::NnBench& bench, const Measured& m) {
  fmt::print("bench-selfplay: {}, network {} blocks x {} channels on {} ({} intra-op threads)\n",
             rules::GameName(c.game.rules, c.game.size), c.model.blocks, c.model.channels,
             bench.DeviceName(), bench.Threads());
  fmt::print(
      "self-play: {} threads x {} games, {} leaves per search, {} {}/{} simulations (full "
      "p={:.2f}), batch {}, max wait {} us, cache {}\n",
      c.selfplay.threads, c.selfplay.games_in_flight, c.selfplay.leaves_per_search,
      c.search.algorithm == search::Algorithm::kGumbel ? "gumbel" : "puct",
      c.selfplay.full_simulations, c.selfplay.cheap_simulations, c.selfplay.full_search_probability,
      c.evaluator.max_batch, c.evaluator.max_wait_us, c.evaluator.cache_size);
  fmt::print(
      "self-play measured over {:.1f} s after a {:.1f} s warm-up; the network alone {} times in "
      "between\n\n",
      m.end.seconds - m.warm.seconds - (m.totals.alone - m.warm_totals.alone), m.warm.seconds,
      m.totals.rates.size());
}

void PrintFigures(const Figures& f, const selfplay::SelfplayStats& end, int batch) {
  fmt::print("network alone, batch {:<4}        {:10.0f} evaluations/s  (mean; {:.0f} .. {:.0f})\n",
             batch, f.alone, f.alone_low, f.alone_high);
  fmt::print("network during self-play         {:10.0f} evaluations/s\n", f.net_rate);
  fmt::print("ratio                            {:10.3f}  (goal >= 0.85)\n",
             f.alone > 0 ? f.net_rate / f.alone : 0.0);
  fmt::print(
      "ratio, median of {:2} segments     {:10.3f}  (each against the network alone just before "
      "and after it)\n",
      f.paired.size(), Median(f.paired));
  fmt::print("network busy during self-play    {:9.1f}%  ({:.0f} evaluations/s while busy)\n",
             f.window > 0 ? 100.0 * f.busy / f.window : 0.0,
             f.busy > 0 ? f.positions / f.busy : 0.0);
  fmt::print("mean batch fill                  {:9.1f}%  ({:.1f} of {})\n", 100.0 * f.fill,
             f.fill * batch, batch);
  fmt::print("evaluations asked by searches    {:10.0f} /s (cache hits {:.1f}%)\n",
             f.window > 0 ? f.asked / f.window : 0.0, 100.0 * f.hits);
  fmt::print("searches (decisions)             {:10.1f} /s\n", f.searches_rate);
  const int64_t searched = end.full_decisions + end.cheap_decisions;
  if (end.games_finished > 0 && searched > 0) {
    const double per_game = static_cast<double>(searched) / end.games_finished;
    fmt::print(
        "games per hour                   {:10.0f}  ({:.1f} searches per game, {} games "
        "finished)\n",
        3600.0 * f.searches_rate / per_game, per_game, end.games_finished);
  } else {
    fmt::print(
        "games per hour                          n/a  (no game finished: run longer or with "
        "fewer games in flight)\n");
  }
}

int RunBenchSelfplay(const BenchSelfplayArgs& args) {
  auto config = BenchConfig(args);
  if (!config) return CommandError("bench-selfplay", config.error_value());
  const Config& c = config.value();
  auto bench = NetworkAlone(c);
  if (!bench) return CommandError("bench-selfplay", {bench.error(), util::ErrorKind::kFailure});
  // The network of self-play: the model, or a fresh network.
  auto evaluator = SelfplayNetwork(args.model, c);
  if (!evaluator) return CommandError("bench-selfplay", evaluator.error_value());
  InterleavedBench timed(*evaluator.value(), *bench.value(), c.evaluator.max_batch,
                         /*period=*/4.0);
  auto measured = MeasureSelfplay(c, timed, args.seconds);
  if (!measured) return CommandError("bench-selfplay", measured.error_value());
  PrintSetup(c, *bench.value(), measured.value());
  PrintFigures(ComputeFigures(measured.value(), c.evaluator.max_batch), measured.value().end,
               c.evaluator.max_batch);
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
