#include "cluster/learner/game_store.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "data/game_journal.h"
#include "data/sample_dir.h"
#include "data/sample_file.h"
#include "util/atomic_file.h"

namespace veletas::cluster {
namespace fs = std::filesystem;

std::string GameIdsPath(const std::string& dir) {
  return (fs::path(dir) / "game_ids.txt").string();
}

util::Result<std::vector<data::GameId>> ReadGameIds(const std::string& dir, bool complete) {
  using R = util::Result<std::vector<data::GameId>>;
  std::vector<data::GameId> ids;
  const std::string list = GameIdsPath(dir);
  std::error_code ec;
  if (fs::exists(list, ec)) {
    auto text = util::ReadFile(list);
    if (!text) return text.error_value();
    std::istringstream in(text.value());
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (line.empty()) continue;
      const auto id = data::GameId::FromHex(line);
      if (!id) return R::Error(list + ":" + std::to_string(n) + ": not a game id");
      ids.push_back(*id);
    }
    return ids;
  }
  if (!fs::is_directory(dir, ec)) return ids;
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".vzs") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    auto file = data::ReadSampleFile(f);
    if (!file) continue;  // unreadable files are skipped by training too
    for (const data::GameRecord& g : file.value().games) {
      if (!g.id.IsNone()) ids.push_back(g.id);
    }
  }
  if (complete) {
    std::string text;
    for (const data::GameId& id : ids) text += id.Hex() + "\n";
    if (util::Status s = util::WriteFileAtomic(list, text); !s.ok()) return s.error_value();
  }
  return ids;
}

util::Result<std::unique_ptr<GameStore>> GameStore::Open(data::SampleDirOptions options,
                                                         const GameIdSet* earlier,
                                                         std::vector<std::string>& notes) {
  auto plan = data::PlanResume(options.dir, options.prefix, options.games, options.games_per_file,
                               options.rules, options.size);
  if (!plan) return plan.error_value();
  std::unique_ptr<GameStore> store(new GameStore(options, earlier));
  for (const std::string& n : plan.value().notes) notes.push_back(n);
  for (const data::GameId& id : plan.value().done_ids) store->ids_.insert(id);
  store->count_ = plan.value().games_done + static_cast<int64_t>(plan.value().recovered.size());
  for (const data::JournalGame& g : plan.value().recovered) {
    const data::GameId& id = g.game.games.front().id;
    if (!id.IsNone()) store->ids_.insert(id);
  }
  store->free_.assign(plan.value().indices.rbegin(), plan.value().indices.rend());
  if (util::Status s = store->writer_.Restore(std::move(plan.value().recovered)); !s.ok()) {
    return s.error_value();
  }
  return store;
}

util::Result<std::vector<GameStore::Outcome>> GameStore::Add(std::vector<data::IndexedGame> games) {
  std::vector<Outcome> out(games.size(), Outcome::kFull);
  std::vector<data::IndexedGame> store;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < games.size(); ++i) {
      const data::GameId& id = games[i].record.id;
      if (!id.IsNone() && (ids_.count(id) || (earlier_ != nullptr && earlier_->count(id)))) {
        out[i] = Outcome::kDuplicate;
        continue;
      }
      if (free_.empty()) continue;
      games[i].index = free_.back();
      free_.pop_back();
      if (!id.IsNone()) ids_.insert(id);
      ++count_;
      out[i] = Outcome::kStored;
      store.push_back(std::move(games[i]));
    }
    // Written under the lock: a concurrent Add must not report its games durable before
    // the ones it follows.
    if (util::Status s = writer_.Add(std::move(store)); !s.ok()) return s.error_value();
  }
  return out;
}

int64_t GameStore::Count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return count_;
}

std::vector<data::GameId> GameStore::Ids() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::vector<data::GameId>(ids_.begin(), ids_.end());
}

}  // namespace veletas::cluster
