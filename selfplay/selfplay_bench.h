// The measurement of `veletas bench selfplay`: how much of the network's speed self-play
// uses. The network's evaluations per second during self-play are measured against the
// network alone at the same batch size, interleaved: every few seconds the self-play network
// thread stops to measure the network alone (a function the caller hands in, e.g.
// model::NnBench::EvalRate), on the same thread and under the same machine load, so that
// other load on the machine affects both figures alike. Torch-free.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "rules/position.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_game.h"
#include "selfplay/selfplay_stats.h"
#include "selfplay/spot_check.h"
#include "util/clock.h"
#include "util/result.h"

namespace veletas::selfplay {

// The self-play network, timed, with measurements of the network alone run on the same
// thread every `period` seconds before a self-play batch. Self-play between two such
// measurements is a segment, compared with the measurements on either side of it. Called
// from the batching front end's thread only; Get() may be called from any thread.
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

  // `alone` measures the network alone and returns its evaluations/s.
  InterleavedBench(search::Evaluator& inner, std::function<double()> alone, double period);

  void Evaluate(std::span<const rules::Position> positions,
                std::span<search::EvalOutput> out) override;

  Totals Get() const;

 private:
  search::Evaluator& inner_;
  const std::function<double()> alone_;
  const double period_;
  const util::SteadyClock::time_point created_;
  util::SteadyClock::time_point next_;
  util::SteadyClock::time_point segment_start_;
  double segment_positions_ = 0;
  mutable std::mutex mutex_;
  Totals totals_;
};

// Self-play statistics and network timings at the end of the warm-up and at the end.
struct Measured {
  SelfplayStats warm, end;
  InterleavedBench::Totals warm_totals, totals;
};

// Self-play of `rules` at `size` on `timed` until `seconds` have passed; the warm-up is the
// first fifth (at most 10 s). Errors: self-play failed (a failure).
util::Result<Measured> MeasureSelfplay(const SelfplayConfig& config,
                                       const search::SearchConfig& search,
                                       const search::BatchingConfig& batching, rules::RuleSet rules,
                                       int size, InterleavedBench& timed, double seconds);

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

// The figures of `m` for network batches of `batch`.
Figures ComputeFigures(const Measured& m, int batch);

// The figures as `veletas bench selfplay` prints them: the ratio (the goal: at least 0.85),
// how busy the network was, batch fill, cache hits and games per hour.
void PrintFigures(const Figures& f, const SelfplayStats& end, int batch, std::ostream& out);

// The setup lines `veletas bench selfplay` prints before the figures: the game and the
// `network` (its size and device, in words), the self-play, search and batching settings,
// and how long self-play and the network alone were measured (from `m`).
std::string BenchSetupText(const std::string& game, const std::string& network,
                           const SelfplayConfig& config, const search::SearchConfig& search,
                           const search::BatchingConfig& batching, const Measured& m);

// The self-play a benchmark plays (`veletas bench selfplay`, `bench spot-check`): games of
// `rules` at `size` with these settings.
struct BenchSelfplay {
  SelfplayConfig selfplay;
  search::SearchConfig search;
  search::BatchingConfig batching;
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
};

// The whole of `veletas bench selfplay`: `play` on `network` for `seconds` (MeasureSelfplay)
// with the network measured alone by `alone` every 4 seconds (InterleavedBench;
// evaluations/s at the batch size batching.max_batch), then to `out` the setup lines
// (BenchSetupText, the network described by `network_text`) and the figures (PrintFigures).
// Errors: self-play failed (a failure).
util::Status RunSelfplayBench(const BenchSelfplay& play, double seconds, search::Evaluator& network,
                              std::function<double()> alone, const std::string& network_text,
                              std::ostream& out);

// `veletas bench spot-check`: every recorded sample of `games` (as a worker sent them, of
// `rules` on a board of `size`) checked by the learner's `evaluator`, and every resignation
// with `resign` (selfplay/spot_check.h).
struct SpotCheckMeasure {
  int64_t positions = 0;                          // checked
  int64_t failures = 0;                           // false alarms, for honest games
  int64_t evaluations = 0;                        // positions the network evaluated for the checks
  double seconds = 0;                             // spent checking
  double max_policy_tv = 0, max_value_error = 0;  // over every check
  std::string first_failure;                      // what the first false alarm exceeded
  int64_t resignations = 0;                       // resigned games checked
  int64_t resign_failures = 0;                    // of them, false alarms
  double max_resign_value = -1;  // the learner's largest value for a resigning player
  double resign_seconds = 0;     // spent checking resignations
};
SpotCheckMeasure MeasureSpotChecks(const std::vector<FinishedGame>& games, rules::RuleSet rules,
                                   int size, const search::SearchConfig& search,
                                   search::Evaluator& evaluator,
                                   const SpotCheckTolerance& tolerance,
                                   const ResignCheckSettings& resign);

}  // namespace veletas::selfplay
