#include "app/run_ratings.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>

#include "arena/match_record.h"
#include "rules/notation.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {
namespace fs = std::filesystem;
using arena::Ladder;
using arena::PlayerRating;
}  // namespace

void PrintLadderTable(const Ladder& ladder, std::ostream& out) {
  size_t width = 6;
  for (const PlayerRating& p : ladder.players) width = std::max(width, p.name.size());
  char line[256];
  std::snprintf(line, sizeof line, "%-*s %9s  %-20s %7s %6s\n", static_cast<int>(width), "player",
                "Elo", "95% CI", "games", "score");
  out << line;
  for (const PlayerRating& p : ladder.players) {
    char ci[64];
    char elo[32];
    if (!p.rated) {
      std::snprintf(elo, sizeof elo, "%s", "-");
      std::snprintf(ci, sizeof ci, "%s", "unrated");
    } else if (p.fixed) {
      std::snprintf(elo, sizeof elo, "%+.1f", p.elo);
      std::snprintf(ci, sizeof ci, "%s", "fixed anchor");
    } else {
      std::snprintf(elo, sizeof elo, "%+.1f", p.elo);
      std::snprintf(ci, sizeof ci, "[%+.1f, %+.1f]", p.ci_low, p.ci_high);
    }
    char score[16] = "-";
    if (p.games > 0) std::snprintf(score, sizeof score, "%.3f", p.score);
    std::snprintf(line, sizeof line, "%-*s %9s  %-20s %7d %6s\n", static_cast<int>(width),
                  p.name.c_str(), elo, ci, p.games, score);
    out << line;
  }
}

charts::Chart RatingsChart(const Ladder& ladder) {
  charts::Chart chart;
  chart.title = "Elo against generation (random = 0, 95% CI)";
  chart.x_label = "generation";
  chart.y_label = "Elo";
  chart.integer_x = true;
  static const std::regex kGen("gen_([0-9]{1,9})");
  std::vector<std::pair<int, const PlayerRating*>> gens;
  int anchors = 0;
  for (const PlayerRating& p : ladder.players) {
    if (!p.rated) continue;
    std::smatch m;
    if (std::regex_match(p.name, m, kGen)) {
      gens.emplace_back(std::stoi(m[1].str()), &p);
      continue;
    }
    char label[160];
    std::snprintf(label, sizeof label, "%s %+.0f", p.name.c_str(), p.elo);
    charts::ReferenceLine ref{label, p.elo, std::nullopt};
    if (p.name != "random") ref.color = charts::SeriesColor(1 + anchors++);
    chart.references.push_back(ref);
  }
  std::sort(gens.begin(), gens.end());
  charts::PlotSeries series;
  series.label = "generations";
  for (const auto& [g, p] : gens) {
    series.x.push_back(g);
    series.y.push_back(p->elo);
    series.y_low.push_back(p->ci_low);
    series.y_high.push_back(p->ci_high);
  }
  if (!gens.empty()) chart.series.push_back(series);
  return chart;
}

util::Result<RunRatings> RateRun(const std::string& run_dir, double prior_games,
                                 std::ostream& warnings) {
  using R = util::Result<RunRatings>;
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) return R::Error(run_dir + ": no such run directory");
  const arena::RunMatches run = arena::LoadRunMatches(run_dir);
  for (const std::string& s : run.skipped) warnings << "skipped " << s << "\n";
  if (run.matches.empty()) {
    std::string why = run.dir_exists
                          ? "no readable match records in " + arena::MatchesDir(run_dir)
                          : "no matches: " + arena::MatchesDir(run_dir) + " does not exist";
    if (!run.skipped.empty()) why += " (" + std::to_string(run.skipped.size()) + " skipped)";
    return R::Error(why);
  }
  // One ladder is one game: all matches must share the rules and board size; and a name
  // should always mean the same player.
  const arena::MatchRecord& first = run.matches.front();
  std::map<std::string, std::pair<std::string, std::string>> specs;  // name -> spec, match
  for (const arena::MatchRecord& m : run.matches) {
    if (m.rules != first.rules || m.size != first.size) {
      return R::Error("match " + m.name + " is " + rules::RuleSetName(m.rules) + " " +
                      std::to_string(m.size) + " but match " + first.name + " is " +
                      rules::RuleSetName(first.rules) + " " + std::to_string(first.size) +
                      "; one ladder needs one game");
    }
    for (const arena::MatchPlayer* p : {&m.a, &m.b}) {
      auto [it, inserted] = specs.emplace(p->name, std::make_pair(p->spec, m.name));
      if (!inserted && it->second.first != p->spec) {
        warnings << "warning: " << p->name << " is \"" << it->second.first << "\" in match "
                 << it->second.second << " but \"" << p->spec << "\" in match " << m.name
                 << "; rated as one player\n";
      }
    }
  }
  arena::LadderOptions options;
  options.prior_games = prior_games;
  auto ladder = arena::ComputeLadder(arena::PairResults(run.matches), options);
  if (!ladder) return R::Failure(ladder.error());  // the ladder cannot be computed
  RunRatings out;
  out.ladder = ladder.value();
  out.matches = run.matches.size();
  out.skipped = run.skipped;
  nlohmann::json& j = out.json;
  j = arena::LadderToJson(ladder.value());
  j["rules"] = rules::RuleSetName(first.rules);
  j["size"] = first.size;
  nlohmann::json names = nlohmann::json::array();
  for (const arena::MatchRecord& m : run.matches) names.push_back(m.name);
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
  if (util::Status e = charts::WriteChartPng(out.png_path, RatingsChart(ladder.value())); !e.ok()) {
    return e.error_value();
  }
  return out;
}

}  // namespace veletas::app
