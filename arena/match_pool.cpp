#include "arena/match_pool.h"

#include <filesystem>
#include <map>
#include <utility>

#include "arena/arena_record.h"
#include "arena/match_text.h"
#include "rules/notation.h"
#include "util/atomic_file.h"
#include "util/checksum.h"

namespace veletas::arena {

util::Result<MatchParts> ReadMatchParts(const std::vector<std::string>& files) {
  namespace fs = std::filesystem;
  MatchParts parts;
  for (const std::string& f : files) {
    auto m = ReadMatchRecord(f);
    if (!m) return m.error_value();
    const fs::path games =
        fs::path(f).parent_path() / fs::path(RecordsFileName(m.value().name)).filename();
    auto text = fs::exists(games) ? util::ReadFile(games.string()) : util::Result<std::string>("");
    if (!text) return text.error_value();
    parts.records.push_back(text.value());
    parts.matches.push_back(std::move(m.value()));
  }
  return parts;
}

util::Result<PooledMatch> PoolMatches(const std::vector<MatchRecord>& matches,
                                      const std::vector<std::string>& files,
                                      const std::vector<std::string>& records) {
  PooledMatch p;
  const MatchRecord& first = matches.front();
  p.rules = first.rules;
  p.size = first.size;
  p.a = first.a;
  p.b = first.b;
  std::map<std::string, std::string> names;  // match name -> file
  std::map<uint64_t, std::string> games_of;  // checksum of a part's games -> file
  for (size_t i = 0; i < matches.size(); ++i) {
    const MatchRecord& m = matches[i];
    const std::string& f = files[i];
    auto bad = [&](const std::string& what) {
      return util::Result<PooledMatch>::Error(f + ": " + what + "; expected the match of " +
                                              files.front());
    };
    if (m.rules != p.rules || m.size != p.size) return bad("other rules or board size");
    if (m.a.name != p.a.name || m.a.spec != p.a.spec || m.b.name != p.b.name ||
        m.b.spec != p.b.spec) {
      return bad("players " + m.a.name + " (" + m.a.spec + ") and " + m.b.name + " (" + m.b.spec +
                 ")");
    }
    if (const auto [it, fresh] = names.emplace(m.name, f); !fresh) {
      return util::Result<PooledMatch>::Error(f + ": the same match (" + m.name + ") as " +
                                              it->second);
    }
    if (!records[i].empty()) {
      if (const auto [it, fresh] = games_of.emplace(util::Checksum64(records[i]), f); !fresh) {
        return util::Result<PooledMatch>::Error(f + ": the same games as " + it->second +
                                                " (the same seed?): a game may count once");
      }
    }
    p.games += static_cast<int>(m.games.size());
    p.a_wins += m.AWins();
    p.b_wins += m.BWins();
    p.parts.push_back(f);
  }
  p.elo = EstimateElo(p.a_wins, p.b_wins);
  return p;
}

std::string PooledMatchText(const PooledMatch& p, const std::vector<MatchRecord>& matches) {
  std::string out;
  for (size_t i = 0; i < matches.size(); ++i) {
    out += p.parts[i] + ": " + std::to_string(matches[i].AWins()) + "-" +
           std::to_string(matches[i].BWins()) + "\n";
  }
  char score[32];
  std::snprintf(score, sizeof score, "%.1f%%", p.games > 0 ? 100.0 * p.a_wins / p.games : 0.0);
  out += std::to_string(matches.size()) + " matches pooled, " + std::to_string(p.games) +
         " games: " + p.a.name + " " + std::to_string(p.a_wins) + " - " + p.b.name + " " +
         std::to_string(p.b_wins) + " (" + score + ")\n";
  out += "Elo " + p.a.name + " - " + p.b.name + ": " + FormatElo(p.elo) + "\n";
  return out;
}

nlohmann::json PooledMatchJson(const PooledMatch& p, const std::vector<MatchRecord>& matches) {
  nlohmann::json j;
  j["format"] = "veletas-match-pool";
  j["rules"] = rules::RuleSetName(p.rules);
  j["size"] = p.size;
  j["players"] = {{"a", {{"name", p.a.name}, {"spec", p.a.spec}}},
                  {"b", {{"name", p.b.name}, {"spec", p.b.spec}}}};
  j["games"] = p.games;
  j["a_wins"] = p.a_wins;
  j["b_wins"] = p.b_wins;
  j["elo"] = EloJson(p.elo);
  nlohmann::json parts = nlohmann::json::array();
  for (size_t i = 0; i < matches.size(); ++i) {
    parts.push_back({{"file", p.parts[i]},
                     {"games", matches[i].games.size()},
                     {"a_wins", matches[i].AWins()},
                     {"b_wins", matches[i].BWins()}});
  }
  j["parts"] = parts;
  return j;
}

}  // namespace veletas::arena
