// Fills the sample files of one output directory (data/sample_dir.h's layout) game by game,
// for self-play (selfplay/selfplay_engine.h) and for the games a cluster learner receives
// (cluster/ingest.h): a game whose file is not complete yet is appended at once to the file's
// journal (data/game_journal.h), and when the last game of a file arrives the file is written
// atomically (games in index order) and its journal removed. A kill therefore loses no game
// that Add returned for.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "data/game_journal.h"
#include "data/sample.h"
#include "rules/position.h"
#include "util/result.h"

namespace veletas::data {

struct SampleDirOptions {
  std::string dir;
  std::string prefix = "samples";
  int64_t games = 0;         // games of the whole run (fixes the files; sample_dir.h)
  int games_per_file = 100;  // >= 1
  rules::RuleSet rules = rules::RuleSet::kStandard;
  int size = 7;
};

// One finished game for the writer.
struct IndexedGame {
  uint64_t index = 0;  // in [0, games): its file is index / games_per_file
  std::vector<Sample> samples;
  GameRecord record;
};

// Thread-safe: games may be added from several threads at once.
class SampleDirWriter {
 public:
  explicit SampleDirWriter(SampleDirOptions options) : options_(std::move(options)) {}

  // Takes back games of incomplete files that a journal held (ResumePlan::recovered): they
  // are not journaled again; a file they complete is written. Call before Add.
  util::Status Restore(std::vector<JournalGame> recovered);

  // Adds finished games, each index once. The games of one file not yet complete are
  // appended to its journal in one write; a file whose last game arrives is written. Returns
  // once all of it is written and synced. Errors (failures) name the file.
  util::Status Add(std::vector<IndexedGame> games);

  // Sample files written by this writer.
  int64_t FilesWritten() const;

 private:
  int64_t ChunkOf(uint64_t index) const {
    return static_cast<int64_t>(index) / options_.games_per_file;
  }
  util::Status WriteChunk(int64_t chunk, std::vector<IndexedGame> games);

  const SampleDirOptions options_;
  mutable std::mutex mutex_;
  std::map<int64_t, std::vector<IndexedGame>> chunks_;  // games of files not yet complete
  int64_t files_written_ = 0;
};

}  // namespace veletas::data
