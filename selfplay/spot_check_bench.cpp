#include "selfplay/spot_check_bench.h"

#include <fmt/format.h>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "selfplay/selfplay_engine.h"
#include "util/clock.h"

namespace veletas::selfplay {

std::string SpotCheckBenchText(const SpotCheckMeasure& m, double selfplay_seconds, int64_t recorded,
                               const SpotCheckBenchSetup& setup) {
  const double per_check = m.seconds / static_cast<double>(std::max<int64_t>(m.positions, 1));
  const double per_position =
      selfplay_seconds / static_cast<double>(std::max<int64_t>(recorded, 1));
  std::string text = fmt::format(
      "checked {} positions of {} recorded: {} false alarms{}\n"
      "largest differences: policy target {:.5f} (tolerance {:.3f}), value of a single-visit "
      "action {:.5f} (tolerance {:.3f})\n"
      "a check: {:.2f} ms, {:.1f} network positions; self-play: {:.2f} ms per recorded position\n"
      "at spot_check_fraction {}: {:.2f}% of the workers' self-play time, spent by the learner\n",
      m.positions, recorded, m.failures,
      m.failures > 0 ? " (first: " + m.first_failure + ")" : std::string(), m.max_policy_tv,
      setup.tolerance.policy_tv, m.max_value_error, setup.tolerance.value, 1e3 * per_check,
      static_cast<double>(m.evaluations) / static_cast<double>(std::max<int64_t>(m.positions, 1)),
      1e3 * per_position, setup.fraction, 100.0 * setup.fraction * per_check / per_position);
  const ResignCheckSettings& r = setup.resign;
  text += fmt::format(
      "checked {} resignations: {} false alarms; largest value for the resigning player "
      "{:.3f} (at most {:.3f}: threshold {:.2f} + margin {:.2f}); {:.2f} ms a check\n",
      m.resignations, m.resign_failures, m.resignations > 0 ? m.max_resign_value : 0.0,
      r.threshold + r.margin, r.threshold, r.margin,
      1e3 * m.resign_seconds / static_cast<double>(std::max<int64_t>(m.resignations, 1)));
  return text + fmt::format("loading the network for the checks: {:.2f} s (once per network)\n",
                            setup.load_seconds);
}

util::Status RunSpotCheckBench(const SpotCheckBenchSetup& setup, search::Evaluator& worker,
                               search::Evaluator& learner, std::ostream& out) {
  std::vector<FinishedGame> games;
  int64_t recorded = 0;
  const auto start = util::SteadyClock::now();
  const BenchSelfplay& play = setup.play;
  for (uint64_t round = 1; recorded < setup.positions; ++round) {
    SelfplayJob job;
    job.rules = play.rules;
    job.size = play.size;
    job.games = std::max(8, play.selfplay.games_in_flight * play.selfplay.threads);
    job.generation = round;
    auto played = PlayGamesInMemory(play.selfplay, play.search, play.batching, worker, job);
    if (!played) return played.error_value();
    for (FinishedGame& g : played.value()) {
      recorded += static_cast<int64_t>(g.samples.size());
      games.push_back(std::move(g));
    }
  }
  const double selfplay_seconds = util::SecondsSince(start);
  const SpotCheckMeasure m = MeasureSpotChecks(games, play.rules, play.size, play.search, learner,
                                               setup.tolerance, setup.resign);
  out << SpotCheckBenchText(m, selfplay_seconds, recorded, setup);
  return util::Ok();
}

}  // namespace veletas::selfplay
