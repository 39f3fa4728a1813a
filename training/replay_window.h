// The learner's data: which sample files (data/sample_file.h) have been ingested, the
// replay window over the newest samples, and the bookkeeping that survives restarts.
// Torch-free.
//
// Files are ingested in order, newest last: the `data` arguments in the order given, each
// directory's *.vzs files (searched recursively) in natural order of their paths relative to
// it ("gen_2/samples_10.vzs" after "gen_2/samples_9.vzs", "gen_10" after "gen_9"); a file
// argument stands for itself. A file is identified by its canonical absolute path: once
// ingested it is never counted again, and DataState (stored in every checkpoint) carries
// the list across calls and restarts. Temporary files ("*.vzs.tmp.*") are ignored.
//
// Window (as KataGo's): with N samples ingested in total (files that left the window
// included), the window is the newest W(N) samples,
//   W(N) = N                                                        for N <= window_min,
//   W(N) = min(window_max, window_min * (1 + g * ((N / window_min)^a - 1) / a))  otherwise,
// a = window_exponent, g = window_growth. W grows like N^a (sublinearly), continuously and
// with slope g at N = window_min. Positions are drawn uniformly from the window.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "data/sample.h"
#include "data/sample_file.h"
#include "rules/position.h"
#include "training/training_config.h"
#include "util/result.h"

namespace veletas::training {

// W(N) above (rounded down). Preconditions: the config's window keys are in range
// (window_min >= 1, window_min <= window_max, 0 < window_exponent <= 1, window_growth > 0).
int64_t WindowSize(const TrainingConfig& config, int64_t total_samples);

struct IngestedFile {
  std::string path;     // canonical absolute path
  int64_t samples = 0;  // samples it held when ingested
  bool operator==(const IngestedFile&) const = default;
};

// What the learner remembers about its data (JSON in the checkpoint metadata).
struct DataState {
  std::vector<IngestedFile> files;  // every file ingested, oldest first
  int64_t total_samples = 0;        // sum of files[].samples
  int64_t batches_drawn = 0;        // position in the sampling stream (one draw per batch)
  int64_t samples_consumed = 0;     // samples trained on (batches * batch size), all calls
  double reuse_credit = 0.0;        // sample uses allowed but not yet trained
  bool operator==(const DataState&) const = default;
};

std::string DataStateToJson(const DataState& state);
// Errors name `source` (e.g. the checkpoint file).
util::Result<DataState> DataStateFromJson(const std::string& json, const std::string& source);

// True when a sorts before b in natural order (digit runs compared as numbers).
bool NaturalLess(const std::string& a, const std::string& b);

// The sample files of `data` (directories or files) in ingestion order, as canonical
// absolute paths, without duplicates. Errors: an empty list, a path that does not exist or
// is neither a file nor a directory, a sample file whose path is not valid UTF-8 (it could
// not be stored in the checkpoint's metadata).
util::Result<std::vector<std::string>> ListSampleFiles(const std::vector<std::string>& data);

// The outcome of ingesting new files.
struct IngestReport {
  int64_t new_files = 0;
  int64_t new_samples = 0;
  std::vector<std::string> skipped;  // "<file>: <why>" for each unreadable or corrupt file
  // The newest files read while ingesting (path -> contents), at least `keep_samples`
  // samples' worth when there are that many, to spare re-reading them for the window.
  std::map<std::string, data::SampleFile> loaded;
};

// Appends the files of `listed` that are not yet in `state` (in order), reading and
// validating each. A truncated or corrupt file is reported in `skipped` and not ingested
// (a later call tries it again). Errors (bad input, `state` unchanged): a readable file of
// another rule set or board size than `rules`/`size`. Older files are dropped from
// report.loaded once the newer ones hold `keep_samples` (e.g. window_max) samples, which
// bounds the memory used by a large backlog.
util::Result<IngestReport> IngestFiles(DataState& state, const std::vector<std::string>& listed,
                                       rules::RuleSet rules, int size,
                                       int64_t keep_samples = INT64_MAX);

// The samples of the window, oldest first, immutable once loaded. Thread-safe to read.
class ReplayWindow {
 public:
  // Loads the newest `window` samples of state.files (from `loaded` when present, else from
  // disk). A file that cannot be read any more is reported in `skipped` and left out (the
  // window then holds fewer samples); so are the games a sample directory's
  // excluded_games.txt lists (data/excluded_games.h). Errors: a file of another rule set or
  // size, an unreadable exclusion list.
  // `aux_ignore_resigned`: the samples of resigned games lose the aux targets of their
  // unclaimed shooters (TrainingConfig::aux_ignore_resigned).
  static util::Result<ReplayWindow> Load(const DataState& state, int64_t window,
                                         rules::RuleSet rules, int size,
                                         std::map<std::string, data::SampleFile> loaded,
                                         std::vector<std::string>& skipped,
                                         bool aux_ignore_resigned = false);
  // A window over given samples (tests, benchmarks).
  explicit ReplayWindow(std::vector<data::Sample> samples) : samples_(std::move(samples)) {}

  int64_t Size() const { return static_cast<int64_t>(samples_.size()); }
  const data::Sample& At(int64_t i) const { return samples_[i]; }
  // Number of files the window draws from.
  int64_t Files() const { return files_; }
  // Samples of excluded games (data/excluded_games.h) left out of the window's files.
  int64_t ExcludedSamples() const { return excluded_samples_; }

 private:
  ReplayWindow() = default;
  std::vector<data::Sample> samples_;
  int64_t files_ = 0;
  int64_t excluded_samples_ = 0;
};

}  // namespace veletas::training
