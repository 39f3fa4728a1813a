// The learner's spot checks of the workers' self-play games (selfplay/spot_check.h): a random
// share of each worker's recorded positions is checked against the network that played
// them, the games a worker stored since its last passed check are remembered, and a worker
// that fails a check is quarantined: those games leave the training window
// (data/excluded_games.h) and its further games are refused. Used by the learner's ingest
// loop (one thread); not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/sample.h"
#include "data/sample_file.h"
#include "model/base/net_config.h"
#include "search/evaluator.h"
#include "search/search_config.h"
#include "selfplay/spot_check.h"
#include "util/random.h"
#include "util/result.h"

namespace veletas::cluster {

// The evaluator of a network, named by its checkpoint file or its published id, at inference
// precision `precision` (the worker's, Entry::precision; nullopt, "" or an unknown name on the
// wire: the learner's own). nullptr: a network this learner cannot evaluate as the worker did;
// errors are failures of the learner. The one type of the spot checks' network loaders
// (SpotCheckerOptions::load, LearnerOptions::load_network, PipelineGames::Start's `check`).
using CheckpointLoader = std::function<util::Result<std::unique_ptr<search::Evaluator>>(
    const std::string& checkpoint, std::optional<model::InferencePrecision> precision)>;

struct SpotCheckerOptions {
  double fraction = 0.01;  // of each worker's recorded positions; 0: no checks
  selfplay::SpotCheckTolerance tolerance;
  search::SearchConfig search;  // the settings the workers search with
  // Every resigned game is checked (selfplay::CheckResignation) when `fraction` > 0.
  selfplay::ResignCheckSettings resign;
  // Where the games stored since each worker's last passed check are kept across learner
  // restarts (written atomically by SaveUnverified); empty: in memory only.
  std::string unverified_file;
  // The evaluator of a published network by its id (nullptr: a network this learner cannot
  // check); errors are failures of the learner. Empty: no checks.
  CheckpointLoader load;
};

// The self-play games of one worker whose drawn positions the learner could not check (a
// declared precision its CPU lacks: SpotChecker::Outcome::kUnreproducible) that it still takes,
// in one learner process; later ones are refused ("unverifiable"), so that declaring such a
// precision does not escape the spot checks.
inline constexpr int64_t kMaxUnreproducibleGames = 20;

// Totals of the checks so far.
struct SpotCheckTotals {
  int64_t positions = 0;       // checked
  int64_t evaluations = 0;     // positions the network evaluated for them
  int64_t failed = 0;          // checks failed
  int64_t unreproducible = 0;  // positions drawn but not checked: the network could not be
                               // evaluated as the worker did (options.load gave nullptr)
  double seconds = 0;          // spent checking (network loads included)
  double max_policy_tv = 0;
  double max_value_error = 0;
  int64_t resignations = 0;  // resigned games checked
  // The largest root value for the resigning player the learner's search found in them.
  double max_resign_value = -1;
};

class SpotChecker {
 public:
  // `seed`: the learner's own random choice (the workers cannot know which positions are
  // checked).
  SpotChecker(SpotCheckerOptions options, uint64_t seed);

  // kUnreproducible: positions were drawn but the learner has no evaluator for the network at
  // the declared precision (its CPU lacks it): counted against the worker (Unreproducible).
  enum class Outcome { kUnchecked, kPassed, kFailed, kUnreproducible };
  // Checks a random share of `samples` (their summaries parallel to them), played by
  // `network` at `precision` (Entry::precision), and, for a game that ended by resignation at
  // `resigned` (nullptr: it did not), the resignation. kFailed with the reason in `why` (at
  // most about 200 characters); kUnchecked also when options.load gives no evaluator for the
  // network. Errors: the network could not be loaded.
  util::Result<Outcome> Check(const std::string& network,
                              std::optional<model::InferencePrecision> precision,
                              const std::vector<data::Sample>& samples,
                              const std::vector<selfplay::RootSummary>& summaries,
                              const rules::Position* resigned, std::string& why);

  // A game of `worker` stored in sample directory `dir` (kPassed games: call Passed); not
  // kept when checks are off (options.fraction 0 or no options.load).
  void Stored(const std::string& worker, const std::string& dir, const data::GameId& id);
  // Counts a kUnreproducible game of `worker`; returns how many it has had (this process).
  int64_t Unreproducible(const std::string& worker) { return ++unreproducible_by_[worker]; }
  // `worker` passed a check: its earlier games are vouched for.
  void Passed(const std::string& worker) { unverified_changed_ |= unverified_.erase(worker) > 0; }
  // The games of `worker` stored since its last passed check, by directory; forgets them.
  std::map<std::string, std::vector<data::GameId>> TakeUnverified(const std::string& worker);

  const SpotCheckTotals& Totals() const { return totals_; }

  // Reads options.unverified_file (none there: nothing unverified). Errors: a line that is
  // not `worker<TAB>directory<TAB>game id`, naming the file and line.
  util::Status LoadUnverified();
  // Writes the unverified games to options.unverified_file when they changed since the last
  // write (a temporary file, synced and renamed).
  util::Status SaveUnverified();

 private:
  SpotCheckerOptions options_;
  util::Rng rng_;
  SpotCheckTotals totals_;
  std::map<std::string, int64_t> unreproducible_by_;  // worker -> kUnreproducible games
  std::string network_;                               // of evaluator_: network id and precision
  std::optional<model::InferencePrecision> precision_;
  std::unique_ptr<search::Evaluator> evaluator_;
  std::map<std::string, std::vector<std::pair<std::string, data::GameId>>> unverified_;
  bool unverified_changed_ = false;

  // Checks are on: a share above 0 and a loader.
  bool Enabled() const { return options_.fraction > 0 && options_.load; }
  // The evaluator of `network` at `precision` (nullptr: options.load has none for it).
  util::Result<search::Evaluator*> EvaluatorOf(const std::string& network,
                                               std::optional<model::InferencePrecision> precision);
  // The resignation at `end` (CheckResignation); false with `why` when it does not stand.
  bool ResignationStands(const rules::Position& end, search::Evaluator& evaluator,
                         std::string& why);
};

}  // namespace veletas::cluster
