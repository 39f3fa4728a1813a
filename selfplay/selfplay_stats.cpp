#include "selfplay/selfplay_stats.h"

#include <cstdarg>
#include <cstdio>

namespace veletas::selfplay {
namespace {

std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

double Percent(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

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

std::string FormatDuration(double seconds) {
  if (seconds < 0) return "?";
  const long long s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return Format("%lldh%02lldm", s / 3600, s / 60 % 60);
  if (s >= 60) return Format("%lldm%02llds", s / 60, s % 60);
  return Format("%llds", s);
}

std::string FormatProgress(const SelfplayStats& s) {
  return Format(
      "%lld/%lld games  %.2f games/s  %.1f turns/game  %.0f evals/s  batch %.1f/%d (%.0f%%)  "
      "cache %.1f%%  ETA %s",
      static_cast<long long>(s.games_finished), static_cast<long long>(s.games_target),
      s.GamesPerSecond(), s.MeanTurns(), s.EvaluationsPerSecond(), s.MeanBatchSize(), s.max_batch,
      100.0 * s.MeanBatchFill(), 100.0 * s.CacheHitRate(), FormatDuration(s.EtaSeconds()).c_str());
}

std::string FormatSummary(const SelfplayStats& s) {
  const auto ll = [](int64_t v) { return static_cast<long long>(v); };
  std::string out;
  out += Format("games           %lld in %s (%.1f games/h)", ll(s.games_finished),
                FormatDuration(s.seconds).c_str(), s.GamesPerHour());
  if (s.games_resumed > 0) out += Format(", %lld more resumed from files", ll(s.games_resumed));
  out += "\n";
  out += Format("samples         %lld (%.1f per game), %lld files written\n", ll(s.samples),
                s.games_finished > 0 ? static_cast<double>(s.samples) / s.games_finished : 0.0,
                ll(s.files_written));
  out += Format("turns/game      %.1f\n", s.MeanTurns());
  out += Format("decisions       %lld full (recorded), %lld cheap, %lld forced\n",
                ll(s.full_decisions), ll(s.cheap_decisions), ll(s.forced_decisions));
  out += Format("evaluations     %.0f/s asked, %.0f/s by the network\n", s.EvaluationsPerSecond(),
                s.NetworkEvaluationsPerSecond());
  out += Format("batch           mean %.1f of %d (%.1f%%), %llu batches\n", s.MeanBatchSize(),
                s.max_batch, 100.0 * s.MeanBatchFill(), static_cast<unsigned long long>(s.batches));
  out += Format("cache hit rate  %.1f%%\n", 100.0 * s.CacheHitRate());
  out += Format(
      "resignations    %lld (%.1f%% of games); no-resign games %lld: rule would have "
      "fired %lld times, %lld false positives (%.1f%%)\n",
      ll(s.resignations), Percent(s.resignations, s.games_finished), ll(s.no_resign_games),
      ll(s.would_resign), ll(s.false_positives), 100.0 * s.FalsePositiveRate());
  out += Format("wins            black %lld (%.1f%%), white %lld (%.1f%%)\n", ll(s.wins_black),
                Percent(s.wins_black, s.games_finished), ll(s.wins_white),
                Percent(s.wins_white, s.games_finished));
  out += Format("                first player %lld (%.1f%%), second player %lld (%.1f%%)\n",
                ll(s.wins_first), Percent(s.wins_first, s.games_finished), ll(s.wins_second),
                Percent(s.wins_second, s.games_finished));
  out += Format("swap rate       %.1f%% (%lld games)\n", 100.0 * s.SwapRate(), ll(s.swaps));
  return out;
}

}  // namespace veletas::selfplay
