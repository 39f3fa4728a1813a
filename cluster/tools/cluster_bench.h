// The measurements of `veletas bench cluster` against a Redis server the user runs
// (docs/CLUSTER.md): the learner's ingest capacity (entries/s it checks, stores durably and
// acknowledges), Redis memory per 1,000 queued games, what `appendfsync always` costs
// against `everysec`, and one worker against self-play in this process, measured alternately
// in one run. Torch-free: the app hands in the network and the worker's loader.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include "cluster/transport/redis_client.h"
#include "cluster/worker/worker.h"
#include "search/evaluator.h"
#include "util/result.h"

namespace veletas::cluster {

// What the learner's side of the bench measured.
struct IngestFigures {
  double entries_per_second = 0;   // checked, stored (flushed) and acknowledged
  double validate_per_second = 0;  // decoding and checking alone
  double bytes_per_entry = 0;
  double searches_per_game = 0;  // of the recorded games
  double memory_per_1000 = 0;    // Redis bytes per 1,000 queued games
  // Entries/s added one by one and in batches of 64 with appendfsync everysec and always
  // (zeros when the server's appendfsync could not be read).
  std::pair<double, double> everysec{}, always{};
};

// Records `games` games of `settings` (a hash evaluator, at most 8 simulations: real games of
// the board, weakly played), then measures a learner of a run of its own ingesting them
// into `work` (removed keys afterwards). Progress lines go to `log`. Errors: what failed.
util::Result<IngestFigures> MeasureIngest(const RunSettings& settings,
                                          const RedisOptions& redis_options,
                                          const std::string& work, int games, std::ostream& log);

// Speeds of one side of the worker comparison: network evaluations asked for per second
// over the timed windows (a continuous measure: games, and on big boards even searches,
// finish in waves of games_in_flight, too few in a minute to count), and the totals of the
// whole rounds (for evaluations per search and searches per game).
struct SelfplaySpeed {
  double evaluations = 0, seconds = 0;  // in the timed windows
  double round_evaluations = 0, round_searches = 0, games = 0;
  double Rate() const { return evaluations / seconds; }
  // Adds the totals of a whole round.
  void AddRound(int64_t searches, uint64_t round_evals, int64_t finished) {
    round_searches += static_cast<double>(searches);
    round_evaluations += static_cast<double>(round_evals);
    games += static_cast<double>(finished);
  }
};

// The worker comparison's setup.
struct WorkerBench {
  RunSettings settings;       // the local side's self-play settings
  int64_t local_games = 0;    // games each local round plans (it is stopped long before)
  std::string config_text;    // the run's config as published to the worker
  std::string network_bytes;  // the checkpoint published to the worker
  search::Evaluator* evaluator = nullptr;  // the local side's network
  // The worker's loader for run `run` (a name the bench chooses).
  std::function<std::unique_ptr<RunLoader>(const std::string& run)> make_loader;
  RedisOptions redis;
  std::string work;     // scratch directory
  double seconds = 60;  // of each timed window, after a warm-up of min(10, seconds / 4)
};

// Self-play in this process against one worker through Redis, alternately, twice each,
// into `local` and `worker`. Progress lines go to `log`. Errors: publishing the run
// ("publishing to redis: ..."), a round that failed.
util::Status MeasureWorker(const WorkerBench& bench, SelfplaySpeed& local, SelfplaySpeed& worker,
                           std::ostream& log);

// The ingest figures as `veletas bench cluster` prints them.
void PrintIngestFigures(const IngestFigures& f, std::ostream& out);

// The worker comparison and the number of workers one learner can feed. Searches per game
// come from the rounds' finished games, or from the recorded games where fewer than 20
// finished (big boards: a game outlasts a round).
void PrintWorkerFigures(const IngestFigures& f, const SelfplaySpeed& local,
                        const SelfplaySpeed& worker, std::ostream& out);

}  // namespace veletas::cluster
