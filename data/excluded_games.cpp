#include "data/excluded_games.h"

#include <filesystem>
#include <sstream>

#include "util/atomic_file.h"

namespace veletas::data {

std::string ExcludedGamesPath(const std::string& dir) {
  return (std::filesystem::path(dir) / "excluded_games.txt").string();
}

util::Result<std::set<GameId>> ReadExcludedGames(const std::string& dir) {
  using R = util::Result<std::set<GameId>>;
  const std::string path = ExcludedGamesPath(dir);
  std::set<GameId> ids;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return ids;
  auto text = util::ReadFile(path);
  if (!text) return text.error_value();
  std::istringstream in(text.value());
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto id = GameId::FromHex(line);
    if (!id) {
      return R::Error(path + ":" + std::to_string(n) +
                      ": expected a game id (32 hex digits), got \"" + line.substr(0, 40) + "\"");
    }
    ids.insert(*id);
  }
  return ids;
}

util::Status AddExcludedGames(const std::string& dir, const std::vector<GameId>& ids) {
  auto known = ReadExcludedGames(dir);
  if (!known) return known.error_value();
  std::set<GameId> all = std::move(known.value());
  all.insert(ids.begin(), ids.end());
  std::string text;
  for (const GameId& id : all) text += id.Hex() + "\n";
  return util::WriteFileAtomic(ExcludedGamesPath(dir), text);
}

int64_t DropExcludedGames(SampleFile& file, const std::set<GameId>& excluded) {
  if (excluded.empty()) return 0;
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
  size_t first = 0;
  for (GameRecord& g : file.games) {
    const size_t end = std::min(first + g.samples, file.samples.size());
    if (!excluded.count(g.id)) {
      for (size_t i = first; i < end; ++i) samples.push_back(std::move(file.samples[i]));
      games.push_back(std::move(g));
    }
    first = end;
  }
  const auto dropped = static_cast<int64_t>(file.samples.size() - samples.size());
  file.samples = std::move(samples);
  file.games = std::move(games);
  return dropped;
}

}  // namespace veletas::data
