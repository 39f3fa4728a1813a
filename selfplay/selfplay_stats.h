// Counters of a self-play run and the derived rates, for progress lines, the final summary
// and the pipeline's own status line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "selfplay/selfplay_game.h"
#include "util/progress_line.h"

namespace veletas::selfplay {

// A person of a no-resign game: the resignation level (ResignTracker::Level) and whether
// that person won.
struct ResignObservation {
  float level = ResignTracker::kNeverLevel;
  bool won = false;
};

// The resignation threshold to use next: the highest threshold t in [-1, 0] (to 0.01)
// such that, among the observed persons whose level is below t (those the rule would make
// resign), the expected fraction who won, (won + 1) / (would + 2) (the posterior mean under
// a uniform prior), is at most `target`; the search stops at the first t where a winner
// makes it exceed `target`. A handful of losers is no evidence: with none enough, -1 (no
// resignation). The raw fraction chose thresholds from too few persons (a 12.7% measured
// false-positive rate against a 5% target in a quick-7x7 run). Returns nullopt when fewer
// than `min_would_resign` persons would resign at t = 0 (keep the current threshold). Pure.
std::optional<float> CalibrateResignThreshold(const std::vector<ResignObservation>& observations,
                                              double target, int min_would_resign);

struct SelfplayStats {
  // --- Games (this run only; resumed games are counted in games_resumed). ---
  int64_t games_target = 0;    // games this run is to play (the job's games minus resumed)
  int64_t games_resumed = 0;   // games found at the start: in complete files and journals
  int64_t games_finished = 0;  // games this run finished
  int64_t files_written = 0;
  int64_t samples = 0;
  int64_t turns = 0;  // full turns summed over finished games
  int64_t full_decisions = 0;
  int64_t cheap_decisions = 0;
  int64_t forced_decisions = 0;
  // Searches finished so far, those of games still in flight included (full_decisions and
  // cheap_decisions count finished games only).
  int64_t searches = 0;
  int64_t wins_black = 0, wins_white = 0;   // by colour
  int64_t wins_first = 0, wins_second = 0;  // by person (second = the pie chooser)
  int64_t swaps = 0;                        // games where the pie rule's swap was taken
  // --- Resignation. ---
  int64_t resignations = 0;
  int64_t no_resign_games = 0;
  // In no-resign games: players for whom the rule would have fired, and of those, how many
  // went on to win (false positives).
  int64_t would_resign = 0;
  int64_t false_positives = 0;
  // Each person of each no-resign game finished by this run: its resignation level and
  // whether it won (for CalibrateResignThreshold).
  std::vector<ResignObservation> resign_observations;
  // --- Evaluator (the batching front end over the network). ---
  uint64_t evaluations = 0;        // positions the searches asked for
  uint64_t cache_hits = 0;         // of those, answered from the cache
  uint64_t batches = 0;            // network calls
  uint64_t network_positions = 0;  // positions the network evaluated (padding excluded)
  int max_batch = 0;
  double seconds = 0;  // wall time since the run started

  // Adds a finished game's counters (not the evaluator's).
  void AddGame(const FinishedGame& g);

  int64_t Decisions() const { return full_decisions + cheap_decisions + forced_decisions; }
  double GamesPerSecond() const { return seconds > 0 ? games_finished / seconds : 0.0; }
  double GamesPerHour() const { return GamesPerSecond() * 3600.0; }
  double MeanTurns() const {
    return games_finished > 0 ? static_cast<double>(turns) / games_finished : 0.0;
  }
  double EvaluationsPerSecond() const { return seconds > 0 ? evaluations / seconds : 0.0; }
  double NetworkEvaluationsPerSecond() const {
    return seconds > 0 ? network_positions / seconds : 0.0;
  }
  double MeanBatchSize() const {
    return batches > 0 ? static_cast<double>(network_positions) / batches : 0.0;
  }
  // Mean batch size as a fraction of max_batch.
  double MeanBatchFill() const { return max_batch > 0 ? MeanBatchSize() / max_batch : 0.0; }
  double CacheHitRate() const {
    return evaluations > 0 ? static_cast<double>(cache_hits) / evaluations : 0.0;
  }
  // False positives per would-be resignation in no-resign games (0 when none).
  double FalsePositiveRate() const {
    return would_resign > 0 ? static_cast<double>(false_positives) / would_resign : 0.0;
  }
  double SwapRate() const {
    return games_finished > 0 ? static_cast<double>(swaps) / games_finished : 0.0;
  }
  // Seconds left at the current rate; negative when unknown.
  double EtaSeconds() const {
    return util::EtaSeconds(static_cast<double>(games_finished), static_cast<double>(games_target),
                            seconds);
  }
};

// One status line: games done/target, games/s, turns/game, evaluations/s, batch fill,
// cache hit rate, ETA. No trailing newline.
std::string FormatProgress(const SelfplayStats& s);
// The multi-line end-of-run summary (trailing newline included).
std::string FormatSummary(const SelfplayStats& s);

}  // namespace veletas::selfplay
