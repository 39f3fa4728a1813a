#include "cluster/audit.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "arena/match_record.h"
#include "data/sample_file.h"

namespace veletas::cluster {

util::Result<RunAudit> AuditRun(const std::string& run_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) {
    return util::Result<RunAudit>::Error(run_dir + ": not a run directory");
  }
  RunAudit audit;
  std::vector<std::string> files;
  const fs::path samples = fs::path(run_dir) / "samples";
  if (fs::is_directory(samples, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(samples, ec)) {
      if (e.is_regular_file() && e.path().extension() == ".vzs") files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  std::map<data::GameId, std::string> seen;
  for (const std::string& f : files) {
    auto file = data::ReadSampleFile(f);
    if (!file) {
      audit.unreadable.push_back(file.error());
      continue;
    }
    ++audit.sample_files;
    for (const data::GameRecord& g : file.value().games) {
      ++audit.selfplay_games;
      if (g.id.IsNone()) continue;
      ++audit.games_with_id;
      const auto [it, fresh] = seen.emplace(g.id, f);
      if (!fresh) audit.duplicates.push_back(g.id.Hex() + ": " + it->second + ", " + f);
    }
  }
  const arena::RunMatches matches = arena::LoadRunMatches(run_dir);
  for (const std::string& s : matches.skipped) audit.unreadable.push_back(s);
  for (const arena::MatchRecord& m : matches.matches) {
    ++audit.matches;
    audit.match_games += static_cast<int64_t>(m.games.size());
  }
  return audit;
}

}  // namespace veletas::cluster
