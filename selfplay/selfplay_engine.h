// The self-play generator: turns an evaluator (the network) into sample files as fast as
// the machine allows.
//
// config.threads worker threads each keep config.games_in_flight games in flight. A worker
// steps all its games' searches together: it collects up to config.leaves_per_search
// leaves from every unfinished search into one vector, makes one Evaluate call on the
// shared search::BatchingEvaluator (which merges the workers' requests into batches of up to
// batching.max_batch for the backend, never of size one, and caches results by position
// hash), hands the results back, and then, for each finished search, records the sample
// (full searches only: playout cap randomisation), applies the resignation rule, chooses
// and plays the action (Mcts::Advance keeps the subtree), finishes games that ended and
// starts the next game indices until the job's games are all claimed.
//
// Each game's randomness (search noise, temperature, budget draws, no-resign draw) comes
// from GameSeed(config.seed, job.generation, game index) only, so with an evaluator whose
// output depends only on the position (the fake evaluators) every run writes the same files
// byte for byte, whatever the thread count; with a network, batch composition may change the
// last bits of its outputs across thread counts.
//
// Output and resume: see data/sample_dir.h. Finished games are buffered until their
// file is complete, which is then written atomically; meanwhile each is appended to the
// file's journal (data/game_journal.h), so a kill loses only the games in flight.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rules/position.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/selfplay_stats.h"
#include "util/result.h"

namespace veletas::selfplay {

struct SelfplayJob {
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
  // Games the output directory is to hold when the run ends (games already in complete
  // files there are not played again). Without an output directory a run may be endless
  // (e.g. INT64_MAX games) and end by hooks.drain or hooks.stop.
  int64_t games = 0;
  // Output directory; empty: play without writing (benchmarks, or games handed to
  // hooks.on_game), nothing is resumed.
  std::string out_dir;
  // The start of every file name (letters, digits, '_', '-', '.'; util::ValidateName).
  std::string prefix = "samples";
  // Part of every game's seed (the pipeline passes its generation number).
  uint64_t generation = 0;
};

struct SelfplayHooks {
  // Called from the calling thread every progress_seconds while the run lasts (not at the
  // end: the result carries the final counters).
  std::function<void(const SelfplayStats&)> progress;
  double progress_seconds = 5.0;
  // Messages worth a line (resume: files found, unreadable files skipped). Called from the
  // calling thread.
  std::function<void(const std::string&)> log;
  // When set to true (e.g. by a signal handler or a benchmark's timer), the workers stop at
  // their next step; games in flight and incomplete files are abandoned.
  const std::atomic<bool>* stop = nullptr;
  // When set to true, no new game starts and the run returns once the games in flight have
  // finished (a cluster worker switching networks between games).
  const std::atomic<bool>* drain = nullptr;
  // While true, the workers wait before their next step; games in flight are kept (a
  // cluster worker playing an arena task meanwhile).
  const std::atomic<bool>* pause = nullptr;
  // Without an output directory: receives each finished game, from a worker thread (calls
  // may overlap; the callee synchronises). An error it returns ends the run with it.
  std::function<util::Status(FinishedGame&&)> on_game;
};

// Plays job.games games (minus those already in complete files in job.out_dir) with
// `backend` behind one batching evaluator configured by `batching`, and writes the sample
// files. The output directory is locked for the run (util::DirectoryLock: a second run on it
// stops with an error) and the temporaries a killed writer left there are removed (logged).
// Returns the run's counters, or an error: a setting out of its range (the configs'
// Validate(), e.g. "selfplay.threads: 0 is out of range [1, 256]"), a bad prefix, the
// directory is in use or holds another run's files (sample_dir.h), a file cannot be written,
// or the backend threw (its message). Precondition: job.size supported. `backend` is called
// from the batching front end's thread only, one batch at a time. Blocks until done.
util::Result<SelfplayStats> RunSelfplay(const SelfplayConfig& config,
                                        const search::SearchConfig& search,
                                        const search::BatchingConfig& batching,
                                        search::Evaluator& backend, const SelfplayJob& job,
                                        const SelfplayHooks& hooks = {});

// Plays job.games games and returns them in the order they finished, writing no files (job's
// output directory is ignored): RunSelfplay with an on_game hook that collects them. For
// benchmarks and tests that need real self-play games in memory. Same preconditions and
// errors as RunSelfplay.
util::Result<std::vector<FinishedGame>> PlayGamesInMemory(const SelfplayConfig& config,
                                                          const search::SearchConfig& search,
                                                          const search::BatchingConfig& batching,
                                                          search::Evaluator& backend,
                                                          SelfplayJob job);

}  // namespace veletas::selfplay
