#include "cluster/tools/audit.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "arena/match_record.h"
#include "arena/sprt.h"
#include "data/sample_file.h"

namespace veletas::cluster {

std::string IndexRanges(const std::vector<int>& indices) {
  std::string out;
  for (size_t i = 0; i < indices.size();) {
    size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(indices[i]);
    if (j > i) out += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  return out;
}

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
    MatchAudit a;
    a.name = m.name;
    if (m.gate) a.decision = arena::GateDecisionName(m.gate->decision);
    a.games = static_cast<int64_t>(m.games.size());
    for (size_t i = 0; i < m.games.size(); ++i) {
      const std::string& w = m.games[i].worker;
      a.games_by_worker[w.empty() ? kLearnerPlayer : w].push_back(static_cast<int>(i));
    }
    audit.match_workers.push_back(std::move(a));
  }
  return audit;
}

std::string AuditText(const std::string& dir, const RunAudit& a) {
  std::ostringstream out;
  out << dir << ": " << a.selfplay_games << " self-play games in " << a.sample_files
      << " sample files (" << a.games_with_id << " with a game id, " << a.duplicates.size()
      << " stored twice), " << a.match_games << " arena games in " << a.matches << " matches\n";
  for (const MatchAudit& m : a.match_workers) {
    out << "  match " << m.name << (m.decision.empty() ? "" : " (gate: " + m.decision + ")") << ", "
        << m.games << " games:";
    for (const auto& [worker, games] : m.games_by_worker) {
      out << " " << worker << " " << games.size() << " [" << IndexRanges(games) << "];";
    }
    out << "\n";
  }
  for (const std::string& d : a.duplicates) out << "  stored twice: " << d << "\n";
  for (const std::string& u : a.unreadable) out << "  unreadable: " << u << "\n";
  return out.str();
}

}  // namespace veletas::cluster
