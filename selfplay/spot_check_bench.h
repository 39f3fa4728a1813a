// `veletas bench spot-check`: the false-alarm rate and the cost of the cluster's spot checks
// (selfplay/spot_check.h) on honest self-play. Games are played with the network as a worker
// plays them, then every recorded position is checked as the learner checks it, with a
// second, independent load of the same network (MeasureSpotChecks, selfplay_bench.h).
// Torch-free: the caller hands in both networks.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "search/evaluator.h"
#include "selfplay/selfplay_bench.h"
#include "selfplay/spot_check.h"
#include "util/result.h"

namespace veletas::selfplay {

// What is measured: `play`, checked with the learner's tolerances.
struct SpotCheckBenchSetup {
  BenchSelfplay play;
  int64_t positions = 10'000;  // recorded positions to check, at least
  SpotCheckTolerance tolerance;
  ResignCheckSettings resign;
  double fraction = 0.01;   // the spot-check fraction the cost is given for
  double load_seconds = 0;  // the learner's load of the network (reported, once per network)
};

// What `veletas bench spot-check` prints for `m`, with self-play having taken
// `selfplay_seconds` for `recorded` positions: the positions checked and the false alarms (the
// first one named), the largest differences against the tolerances, the time of a check
// against the self-play time of one recorded position and what that costs at
// setup.fraction, then the same for the resignations, then setup.load_seconds.
std::string SpotCheckBenchText(const SpotCheckMeasure& m, double selfplay_seconds, int64_t recorded,
                               const SpotCheckBenchSetup& setup);

// The whole of `veletas bench spot-check`: rounds of max(8, games in flight x threads)
// self-play games on `worker` (generation = the round, from 1) until setup.positions
// positions are recorded, every one of them checked on `learner`, and SpotCheckBenchText to
// `out`. Errors: self-play failed.
util::Status RunSpotCheckBench(const SpotCheckBenchSetup& setup, search::Evaluator& worker,
                               search::Evaluator& learner, std::ostream& out);

}  // namespace veletas::selfplay
