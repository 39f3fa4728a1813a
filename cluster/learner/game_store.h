// The learner's store of self-play games for one iteration: the iteration's sample directory
// (data/sample_dir.h) filled in the order games arrive, each game id at most once in the run.
// Add returns once the games are durable (journal appends flushed to the device, complete
// files written atomically), so the learner acknowledges an entry only after that. A
// learner killed at any moment finds every stored game again (the files, the journals and
// their game ids) when it reopens the store.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "data/sample.h"
#include "data/sample_dir_writer.h"
#include "util/result.h"

namespace veletas::cluster {

struct GameIdHash {
  size_t operator()(const data::GameId& id) const {
    size_t h = 0;
    for (int i = 0; i < 8; ++i) h = (h << 8) | id.bytes[i];
    return h;
  }
};
using GameIdSet = std::unordered_set<data::GameId, GameIdHash>;

// "<dir>/game_ids.txt": the ids of a finished iteration's games, one per line (hex).
std::string GameIdsPath(const std::string& dir);

// The ids of the games in the sample files (*.vzs) of directory `dir`: from game_ids.txt when
// there, else read from the files (and game_ids.txt written when `complete`: the directory's
// files are all there). Errors name the file.
util::Result<std::vector<data::GameId>> ReadGameIds(const std::string& dir, bool complete);

class GameStore {
 public:
  enum class Outcome { kStored, kDuplicate, kFull };

  // Opens the iteration's directory (every append is synced): complete files and journals
  // are taken back. `earlier`: the ids of the run's earlier iterations (must outlive the
  // store). `notes` gets a line per file taken back or dropped. Errors name the file.
  static util::Result<std::unique_ptr<GameStore>> Open(data::SampleDirOptions options,
                                                       const GameIdSet* earlier,
                                                       std::vector<std::string>& notes);

  // Stores games in order until the iteration holds options.games: a game whose id is in
  // the run already is a duplicate, a game that finds the iteration full is not stored.
  // Durable when it returns. Thread-safe. Errors (failures) name the file.
  util::Result<std::vector<Outcome>> Add(std::vector<data::IndexedGame> games);

  int64_t Count() const;
  bool Full() const { return Count() >= options_.games; }
  // The ids of the games stored in the iteration, in no particular order.
  std::vector<data::GameId> Ids() const;

 private:
  GameStore(data::SampleDirOptions options, const GameIdSet* earlier)
      : options_(std::move(options)), earlier_(earlier), writer_(options_) {}

  const data::SampleDirOptions options_;
  const GameIdSet* earlier_;
  data::SampleDirWriter writer_;
  mutable std::mutex mutex_;
  std::vector<uint64_t> free_;  // indices still open, largest first
  GameIdSet ids_;               // of this iteration
  int64_t count_ = 0;
};

}  // namespace veletas::cluster
