#include "selfplay/selfplay_bench.h"

#include <fmt/format.h>
#include <algorithm>
#include <atomic>

#include "rules/notation.h"
#include "selfplay/selfplay_engine.h"
#include "util/clock.h"

namespace veletas::selfplay {
namespace {

// Median of `v` (0 when empty).
double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

InterleavedBench::InterleavedBench(search::Evaluator& inner, std::function<double()> alone,
                                   double period)
    : inner_(inner),
      alone_(std::move(alone)),
      period_(period),
      created_(util::SteadyClock::now()),
      next_(created_) {}

void InterleavedBench::Evaluate(std::span<const rules::Position> positions,
                                std::span<search::EvalOutput> out) {
  if (util::SteadyClock::now() >= next_) {
    const auto start = util::SteadyClock::now();
    const double rate = alone_();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!totals_.rates.empty()) {
      totals_.segments.push_back({std::chrono::duration<double>(segment_start_ - created_).count(),
                                  std::chrono::duration<double>(start - segment_start_).count(),
                                  segment_positions_});
    }
    totals_.alone += util::SecondsSince(start);
    totals_.rates.push_back(rate);
    segment_start_ = util::SteadyClock::now();
    segment_positions_ = 0;
    next_ = segment_start_ + std::chrono::duration_cast<util::SteadyClock::duration>(
                                 std::chrono::duration<double>(period_));
  }
  const auto start = util::SteadyClock::now();
  inner_.Evaluate(positions, out);
  const double took = util::SecondsSince(start);
  std::lock_guard<std::mutex> lock(mutex_);
  totals_.busy += took;
  segment_positions_ += static_cast<double>(positions.size());
}

InterleavedBench::Totals InterleavedBench::Get() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return totals_;
}

util::Result<Measured> MeasureSelfplay(const SelfplayConfig& config,
                                       const search::SearchConfig& search,
                                       const search::BatchingConfig& batching, rules::RuleSet rules,
                                       int size, InterleavedBench& timed, double seconds) {
  SelfplayJob job;
  job.rules = rules;
  job.size = size;
  job.games = 1'000'000'000;  // until stopped
  std::atomic<bool> stop{false};
  const double warmup = std::min(10.0, seconds / 5);
  Measured m;
  bool have_warm = false;
  SelfplayHooks hooks;
  hooks.progress_seconds = 0.25;
  hooks.stop = &stop;
  hooks.progress = [&](const SelfplayStats& s) {
    if (!have_warm && s.seconds >= warmup) {
      m.warm = s;
      m.warm_totals = timed.Get();
      have_warm = true;
    }
    if (s.seconds >= seconds) stop = true;
  };
  auto result = RunSelfplay(config, search, batching, timed, job, hooks);
  if (!result) return util::Error{result.error(), util::ErrorKind::kFailure};
  m.end = result.value();
  m.totals = timed.Get();
  return m;
}

Figures ComputeFigures(const Measured& m, int batch) {
  const SelfplayStats &warm = m.warm, &end = m.end;
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

void PrintFigures(const Figures& f, const SelfplayStats& end, int batch, std::ostream& out) {
  out << fmt::format(
      "network alone, batch {:<4}        {:10.0f} evaluations/s  (mean; {:.0f} .. {:.0f})\n", batch,
      f.alone, f.alone_low, f.alone_high);
  out << fmt::format("network during self-play         {:10.0f} evaluations/s\n", f.net_rate);
  out << fmt::format("ratio                            {:10.3f}  (goal >= 0.85)\n",
                     f.alone > 0 ? f.net_rate / f.alone : 0.0);
  out << fmt::format(
      "ratio, median of {:2} segments     {:10.3f}  (each against the network alone just before "
      "and after it)\n",
      f.paired.size(), Median(f.paired));
  out << fmt::format(
      "network busy during self-play    {:9.1f}%  ({:.0f} evaluations/s while busy)\n",
      f.window > 0 ? 100.0 * f.busy / f.window : 0.0, f.busy > 0 ? f.positions / f.busy : 0.0);
  out << fmt::format("mean batch fill                  {:9.1f}%  ({:.1f} of {})\n", 100.0 * f.fill,
                     f.fill * batch, batch);
  out << fmt::format("evaluations asked by searches    {:10.0f} /s (cache hits {:.1f}%)\n",
                     f.window > 0 ? f.asked / f.window : 0.0, 100.0 * f.hits);
  out << fmt::format("searches (decisions)             {:10.1f} /s\n", f.searches_rate);
  const int64_t searched = end.full_decisions + end.cheap_decisions;
  if (end.games_finished > 0 && searched > 0) {
    const double per_game = static_cast<double>(searched) / end.games_finished;
    out << fmt::format(
        "games per hour                   {:10.0f}  ({:.1f} searches per game, {} games "
        "finished)\n",
        3600.0 * f.searches_rate / per_game, per_game, end.games_finished);
  } else {
    out << fmt::format(
        "games per hour                          n/a  (no game finished: run longer or with "
        "fewer games in flight)\n");
  }
}

std::string BenchSetupText(const std::string& game, const std::string& network,
                           const SelfplayConfig& config, const search::SearchConfig& search,
                           const search::BatchingConfig& batching, const Measured& m) {
  return fmt::format("bench selfplay: {}, network {}\n", game, network) +
         fmt::format(
             "self-play: {} threads x {} games, {} leaves per search, {} {}/{} simulations (full "
             "p={:.2f}), batch {}, max wait {} us, cache {}\n",
             config.threads, config.games_in_flight, config.leaves_per_search,
             search::AlgorithmName(search.algorithm), config.full_simulations,
             config.cheap_simulations, config.full_search_probability, batching.max_batch,
             batching.max_wait_us, batching.cache_size) +
         fmt::format(
             "self-play measured over {:.1f} s after a {:.1f} s warm-up; the network alone {} "
             "times in between\n\n",
             m.end.seconds - m.warm.seconds - (m.totals.alone - m.warm_totals.alone),
             m.warm.seconds, m.totals.rates.size());
}

util::Status RunSelfplayBench(const BenchSelfplay& play, double seconds, search::Evaluator& network,
                              std::function<double()> alone, const std::string& network_text,
                              std::ostream& out) {
  InterleavedBench timed(network, std::move(alone), /*period=*/4.0);
  auto measured = MeasureSelfplay(play.selfplay, play.search, play.batching, play.rules, play.size,
                                  timed, seconds);
  if (!measured) return measured.error_value();
  out << BenchSetupText(rules::GameName(play.rules, play.size), network_text, play.selfplay,
                        play.search, play.batching, measured.value());
  const int batch = play.batching.max_batch;
  PrintFigures(ComputeFigures(measured.value(), batch), measured.value().end, batch, out);
  return util::Ok();
}

namespace {

// The resignations of `games` checked with `resign` (without its margin, applied here).
void MeasureResignChecks(const std::vector<FinishedGame>& games, rules::RuleSet rules, int size,
                         const search::SearchConfig& search, search::Evaluator& evaluator,
                         const ResignCheckSettings& resign, SpotCheckMeasure& m) {
  ResignCheckSettings loose = resign;
  loose.margin = 2;
  const auto start = util::SteadyClock::now();
  for (const FinishedGame& g : games) {
    if (!g.record.resigned) continue;
    auto played = rules::PlayRecord(rules, size, g.record.record);
    if (!played) continue;
    ++m.resignations;
    auto r = CheckResignation(played.value().final, search, loose, evaluator);
    if (!r || r.value().value > resign.threshold + resign.margin) ++m.resign_failures;
    if (r) m.max_resign_value = std::max(m.max_resign_value, double{r.value().value});
  }
  m.resign_seconds = util::SecondsSince(start);
}

}  // namespace

SpotCheckMeasure MeasureSpotChecks(const std::vector<FinishedGame>& games, rules::RuleSet rules,
                                   int size, const search::SearchConfig& search,
                                   search::Evaluator& evaluator,
                                   const SpotCheckTolerance& tolerance,
                                   const ResignCheckSettings& resign) {
  SpotCheckMeasure m;
  // Checked without the tolerances, which are applied here: the largest differences are
  // those of every check, the failed ones included.
  SpotCheckTolerance loose;
  loose.policy_tv = 1;
  loose.value = 2;
  const auto start = util::SteadyClock::now();
  for (const FinishedGame& g : games) {
    for (size_t i = 0; i < g.samples.size() && i < g.summaries.size(); ++i) {
      ++m.positions;
      auto r = SpotCheck(g.samples[i], g.summaries[i], search, evaluator, loose);
      std::string failure = r ? "" : r.error();
      if (r) {
        m.evaluations += r.value().evaluations;
        m.max_policy_tv = std::max(m.max_policy_tv, r.value().policy_tv);
        m.max_value_error = std::max(m.max_value_error, r.value().value_error);
        if (r.value().policy_tv > tolerance.policy_tv) failure = "policy target";
        if (r.value().value_error > tolerance.value) failure = "single-visit value";
      }
      if (!failure.empty() && m.failures++ == 0) m.first_failure = failure;
    }
  }
  m.seconds = util::SecondsSince(start);
  MeasureResignChecks(games, rules, size, search, evaluator, resign, m);
  return m;
}

}  // namespace veletas::selfplay
