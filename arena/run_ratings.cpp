#include "arena/run_ratings.h"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <map>

#include "arena/match_record.h"
#include "rules/notation.h"
#include "util/atomic_file.h"

namespace veletas::arena {
namespace {
namespace fs = std::filesystem;
}  // namespace

void PrintLadderTable(const Ladder& ladder, std::ostream& out) {
  size_t width = 6;
  for (const PlayerRating& p : ladder.players) width = std::max(width, p.name.size());
  out << fmt::format("{:<{}} {:>9}  {:<20} {:>7} {:>6}\n", "player", width, "Elo", "95% CI",
                     "games", "score");
  for (const PlayerRating& p : ladder.players) {
    const std::string elo = p.rated ? fmt::format("{:+.1f}", p.elo) : "-";
    const std::string ci = !p.rated  ? "unrated"
                           : p.fixed ? "fixed anchor"
                                     : fmt::format("[{:+.1f}, {:+.1f}]", p.ci_low, p.ci_high);
    const std::string score = p.games > 0 ? fmt::format("{:.3f}", p.score) : "-";
    out << fmt::format("{:<{}} {:>9}  {:<20} {:>7} {:>6}\n", p.name, width, elo, ci, p.games,
                       score);
  }
}

util::Result<RunRatings> RateRun(const std::string& run_dir, double prior_games,
                                 std::ostream& warnings) {
  using R = util::Result<RunRatings>;
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) return R::Error(run_dir + ": no such run directory");
  const RunMatches run = LoadRunMatches(run_dir);
  for (const std::string& s : run.skipped) warnings << "skipped " << s << "\n";
  if (run.matches.empty()) {
    std::string why = run.dir_exists ? "no readable match records in " + MatchesDir(run_dir)
                                     : "no matches: " + MatchesDir(run_dir) + " does not exist";
    if (!run.skipped.empty()) why += " (" + std::to_string(run.skipped.size()) + " skipped)";
    return R::Error(why);
  }
  // One ladder is one game: all matches must share the rules and board size; and a name
  // should always mean the same player.
  const MatchRecord& first = run.matches.front();
  std::map<std::string, std::pair<std::string, std::string>> specs;  // name -> spec, match
  for (const MatchRecord& m : run.matches) {
    if (m.rules != first.rules || m.size != first.size) {
      return R::Error("match " + m.name + " is " + rules::RuleSetName(m.rules) + " " +
                      std::to_string(m.size) + " but match " + first.name + " is " +
                      rules::RuleSetName(first.rules) + " " + std::to_string(first.size) +
                      "; one ladder needs one game");
    }
    for (const MatchPlayer* p : {&m.a, &m.b}) {
      auto [it, inserted] = specs.emplace(p->name, std::make_pair(p->spec, m.name));
      if (!inserted && it->second.first != p->spec) {
        warnings << "warning: " << p->name << " is \"" << it->second.first << "\" in match "
                 << it->second.second << " but \"" << p->spec << "\" in match " << m.name
                 << "; rated as one player\n";
      }
    }
  }
  LadderOptions options;
  options.prior_games = prior_games;
  auto ladder = ComputeLadder(PairResults(run.matches), options);
  if (!ladder) return R::Failure(ladder.error());  // the ladder cannot be computed
  RunRatings out;
  out.ladder = ladder.value();
  out.matches = run.matches.size();
  out.skipped = run.skipped;
  nlohmann::json& j = out.json;
  j = LadderToJson(ladder.value());
  j["rules"] = rules::RuleSetName(first.rules);
  j["size"] = first.size;
  nlohmann::json names = nlohmann::json::array();
  for (const MatchRecord& m : run.matches) names.push_back(m.name);
  j["matches"] = names;
  j["skipped_files"] = run.skipped;
  nlohmann::json players_specs = nlohmann::json::object();
  for (const auto& [name, spec] : specs) players_specs[name] = spec.first;
  j["specs"] = players_specs;
  out.json_path = (fs::path(run_dir) / "ratings.json").string();
  out.png_path = (fs::path(run_dir) / "ratings.png").string();
  if (util::Status e = util::WriteFileAtomic(out.json_path, j.dump(1) + "\n"); !e.ok()) {
    return e.error_value();
  }
  return out;
}

void PrintLadderRound(const LadderRoundResult& r, const std::string& run_dir, bool json_out,
                      std::ostream& out) {
  if (json_out) {
    nlohmann::json j;
    nlohmann::json matches = nlohmann::json::array();
    for (const auto& m : r.matches) {
      matches.push_back({{"name", m.name},
                         {"a", m.a},
                         {"b", m.b},
                         {"a_wins", m.a_wins},
                         {"b_wins", m.b_wins},
                         {"existed", m.existed}});
    }
    j["matches"] = matches;
    j["ladder"] = r.ladder ? LadderToJson(*r.ladder) : nlohmann::json(nullptr);
    if (!r.ladder) j["ladder_error"] = r.ladder_error;
    out << j.dump(1) << "\n";
    return;
  }
  for (const auto& m : r.matches) {
    out << m.name << ": " << m.a << " " << m.a_wins << " - " << m.b_wins << " " << m.b
        << (m.existed ? " (played before)" : "") << "\n";
  }
  if (!r.ladder) {
    out << "no ladder: " << r.ladder_error << "\n";
    return;
  }
  out << "\nladder of the run (random fixed at 0):\n";
  for (const PlayerRating& p : r.ladder->players) {
    if (!p.rated) {
      out << fmt::format("  {:<20} unrated\n", p.name);
    } else if (p.fixed) {
      out << fmt::format("  {:<20} {:+8.1f}  fixed anchor  {} games\n", p.name, p.elo, p.games);
    } else {
      out << fmt::format("  {:<20} {:+8.1f}  [{:+.1f}, {:+.1f}]  {} games\n", p.name, p.elo,
                         p.ci_low, p.ci_high, p.games);
    }
  }
  out << "(`veletas ratings " << run_dir << "` writes ratings.json and ratings.png)\n";
}

void PrintRatings(const RunRatings& r, double prior_games, std::ostream& out) {
  out << r.matches << " matches";
  if (!r.skipped.empty()) out << " (" << r.skipped.size() << " files skipped)";
  out << "; Bradley-Terry ratings, random fixed at 0, prior " << prior_games
      << " virtual game(s) per pair\n\n";
  PrintLadderTable(r.ladder, out);
  for (const PlayerRating& p : r.ladder.players) {
    if (!p.rated) {
      out << "(unrated: no chain of games links the player to an anchor)\n";
      break;
    }
  }
}

}  // namespace veletas::arena
