#include "selfplay/selfplay_stats.h"

#include <fmt/format.h>

#include "util/text.h"

namespace veletas::selfplay {
void SelfplayStats::AddGame(const FinishedGame& g) {
  ++games_finished;
  samples += static_cast<int64_t>(g.samples.size());
  turns += g.turns;
  full_decisions += g.full_decisions;
  cheap_decisions += g.cheap_decisions;
  forced_decisions += g.forced_decisions;
  ++(g.winner_color == rules::Color::kBlack ? wins_black : wins_white);
  ++(g.winner_person == 0 ? wins_first : wins_second);
  if (g.swapped) ++swaps;
  if (g.resigned) ++resignations;
  if (g.no_resign) {
    ++no_resign_games;
    for (int person = 0; person < 2; ++person) {
      resign_observations.push_back({g.resign_level[person], g.winner_person == person});
      if (!g.would_resign[person]) continue;
      ++would_resign;
      if (g.winner_person == person) ++false_positives;
    }
  }
}

std::optional<float> CalibrateResignThreshold(const std::vector<ResignObservation>& observations,
                                              double target, int min_would_resign) {
  int at_zero = 0;
  for (const ResignObservation& o : observations) at_zero += o.level < 0.0f;
  if (at_zero < min_would_resign) return std::nullopt;
  float best = -1.0f;
  for (int step = 0; step <= 100; ++step) {
    const float t = -1.0f + 0.01f * static_cast<float>(step);
    int would = 0, won = 0;
    for (const ResignObservation& o : observations) {
      if (o.level >= t) continue;
      ++would;
      won += o.won;
    }
    const double expected = (won + 1.0) / (would + 2.0);
    if (expected <= target) {
      best = t;
    } else if (won > 0) {
      break;
    }
  }
  return best;
}

std::string FormatProgress(const SelfplayStats& s) {
  return fmt::format(
      "{}/{} games  {:.2f} games/s  {:.1f} turns/game  {:.0f} evals/s  batch {:.1f}/{} ({:.0f}%)  "
      "cache {:.1f}%  ETA {}",
      static_cast<long long>(s.games_finished), static_cast<long long>(s.games_target),
      s.GamesPerSecond(), s.MeanTurns(), s.EvaluationsPerSecond(), s.MeanBatchSize(), s.max_batch,
      100.0 * s.MeanBatchFill(), 100.0 * s.CacheHitRate(), util::FormatDuration(s.EtaSeconds()));
}

std::string FormatSummary(const SelfplayStats& s) {
  const auto ll = [](int64_t v) { return static_cast<long long>(v); };
  std::string out;
  out += fmt::format("games           {} in {} ({:.1f} games/h)", ll(s.games_finished),
                     util::FormatDuration(s.seconds), s.GamesPerHour());
  if (s.games_resumed > 0) out += fmt::format(", {} more resumed from files", ll(s.games_resumed));
  out += "\n";
  out += fmt::format("samples         {} ({:.1f} per game), {} files written\n", ll(s.samples),
                     s.games_finished > 0 ? static_cast<double>(s.samples) / s.games_finished : 0.0,
                     ll(s.files_written));
  out += fmt::format("turns/game      {:.1f}\n", s.MeanTurns());
  out += fmt::format("decisions       {} full (recorded), {} cheap, {} forced\n",
                     ll(s.full_decisions), ll(s.cheap_decisions), ll(s.forced_decisions));
  out += fmt::format("evaluations     {:.0f}/s asked, {:.0f}/s by the network\n",
                     s.EvaluationsPerSecond(), s.NetworkEvaluationsPerSecond());
  out += fmt::format("batch           mean {:.1f} of {} ({:.1f}%), {} batches\n", s.MeanBatchSize(),
                     s.max_batch, 100.0 * s.MeanBatchFill(),
                     static_cast<unsigned long long>(s.batches));
  out += fmt::format("cache hit rate  {:.1f}%\n", 100.0 * s.CacheHitRate());
  out += fmt::format(
      "resignations    {} ({:.1f}% of games); no-resign games {}: rule would have "
      "fired {} times, {} false positives ({:.1f}%)\n",
      ll(s.resignations), util::Percent(s.resignations, s.games_finished), ll(s.no_resign_games),
      ll(s.would_resign), ll(s.false_positives), 100.0 * s.FalsePositiveRate());
  out += fmt::format("wins            black {} ({:.1f}%), white {} ({:.1f}%)\n", ll(s.wins_black),
                     util::Percent(s.wins_black, s.games_finished), ll(s.wins_white),
                     util::Percent(s.wins_white, s.games_finished));
  out += fmt::format("                first player {} ({:.1f}%), second player {} ({:.1f}%)\n",
                     ll(s.wins_first), util::Percent(s.wins_first, s.games_finished),
                     ll(s.wins_second), util::Percent(s.wins_second, s.games_finished));
  out += fmt::format("swap rate       {:.1f}% ({} games)\n", 100.0 * s.SwapRate(), ll(s.swaps));
  return out;
}

}  // namespace veletas::selfplay
