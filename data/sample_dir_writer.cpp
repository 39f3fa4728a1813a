#include "data/sample_dir_writer.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "data/sample_dir.h"
#include "data/sample_file.h"
#include "util/atomic_file.h"

namespace veletas::data {

util::Status SampleDirWriter::Restore(std::vector<JournalGame> recovered) {
  std::vector<int64_t> complete;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (JournalGame& g : recovered) {
      IndexedGame game{g.index, std::move(g.game.samples), std::move(g.game.games.front())};
      std::vector<IndexedGame>& games = chunks_[ChunkOf(g.index)];
      games.push_back(std::move(game));
    }
    for (const auto& [chunk, games] : chunks_) {
      if (static_cast<int64_t>(games.size()) >=
          ChunkGames(chunk, options_.games, options_.games_per_file)) {
        complete.push_back(chunk);
      }
    }
  }
  for (int64_t chunk : complete) {
    std::vector<IndexedGame> games;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      games = std::move(chunks_[chunk]);
      chunks_.erase(chunk);
    }
    if (util::Status s = WriteChunk(chunk, std::move(games)); !s.ok()) return s;
  }
  return util::Ok();
}

util::Status SampleDirWriter::Add(std::vector<IndexedGame> games) {
  // Journal entries are encoded before taking the lock (a game's file is rarely completed by
  // it, and encoding is the expensive part).
  std::vector<std::string> entries(games.size());
  if (options_.games_per_file > 1) {
    for (size_t i = 0; i < games.size(); ++i) {
      SampleFile one;
      one.rules = options_.rules;
      one.size = options_.size;
      one.samples = games[i].samples;
      one.games.push_back(games[i].record);
      auto entry = EncodeJournalEntry(games[i].index, one);
      if (!entry) return entry.error_value();
      entries[i] = std::move(entry.value());
    }
  }
  std::map<int64_t, std::vector<IndexedGame>> complete;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<int64_t, std::string> appends;  // chunk -> journal bytes of this call
    for (size_t i = 0; i < games.size(); ++i) {
      const int64_t chunk = ChunkOf(games[i].index);
      std::vector<IndexedGame>& held = chunks_[chunk];
      held.push_back(std::move(games[i]));
      if (static_cast<int64_t>(held.size()) <
          ChunkGames(chunk, options_.games, options_.games_per_file)) {
        appends[chunk] += entries[i];
        continue;
      }
      complete[chunk] = std::move(held);
      chunks_.erase(chunk);
      appends.erase(chunk);  // the file replaces its journal
    }
    // Appended under the lock, so that no entry follows the file's write and removal.
    for (const auto& [chunk, bytes] : appends) {
      const std::string path = JournalPath(options_.dir, options_.prefix, chunk);
      if (util::Status s = util::AppendFile(path, bytes); !s.ok()) return s;
    }
  }
  for (auto& [chunk, held] : complete) {
    if (util::Status s = WriteChunk(chunk, std::move(held)); !s.ok()) return s;
  }
  return util::Ok();
}

int64_t SampleDirWriter::FilesWritten() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return files_written_;
}

util::Status SampleDirWriter::WriteChunk(int64_t chunk, std::vector<IndexedGame> games) {
  std::sort(games.begin(), games.end(),
            [](const IndexedGame& a, const IndexedGame& b) { return a.index < b.index; });
  SampleFile file;
  file.rules = options_.rules;
  file.size = options_.size;
  for (IndexedGame& g : games) {
    std::move(g.samples.begin(), g.samples.end(), std::back_inserter(file.samples));
    file.games.push_back(std::move(g.record));
  }
  const util::Status written =
      WriteSampleFile(ChunkPath(options_.dir, options_.prefix, chunk), file);
  if (!written.ok()) return written;
  std::error_code ec;
  std::filesystem::remove(JournalPath(options_.dir, options_.prefix, chunk), ec);
  std::lock_guard<std::mutex> lock(mutex_);
  ++files_written_;
  return util::Ok();
}

}  // namespace veletas::data
