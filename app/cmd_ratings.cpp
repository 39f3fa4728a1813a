// `veletas ratings RUN_DIR [--json] [--prior-games X]`: the Bradley-Terry rating ladder of
// every player in a run, from all its match records (RUN_DIR/matches/*.json), with `random`
// fixed at Elo 0. Prints a table (or the JSON), writes RUN_DIR/ratings.json and
// RUN_DIR/ratings.png (Elo against generation with 95% intervals).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "app/args.h"
#include "app/command.h"
#include "rules/notation.h"
#include "selfplay/match_record.h"
#include "selfplay/plot.h"
#include "selfplay/ratings.h"
#include "util/atomic_file.h"

namespace veletas::app {
namespace {

namespace fs = std::filesystem;
using selfplay::Ladder;
using selfplay::PlayerRating;

void PrintTable(const Ladder& ladder, std::ostream& out) {
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

// Elo against generation for players named gen_<N>; every other rated player is a dashed
// reference line (random at 0 in grey).
selfplay::Chart RatingsChart(const Ladder& ladder) {
  selfplay::Chart chart;
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
    selfplay::ReferenceLine ref{label, p.elo, std::nullopt};
    if (p.name != "random") ref.color = selfplay::SeriesColor(1 + anchors++);
    chart.references.push_back(ref);
  }
  std::sort(gens.begin(), gens.end());
  selfplay::PlotSeries series;
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

int RunRatings(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"json", false}, {"prior-games", true}}, argv, 1);
  if (!parsed) return UsageError("ratings", parsed.error());
  const ParsedArgs& args = parsed.value();
  if (args.Positional().size() != 1) return UsageError("ratings", "expected RUN_DIR");
  const std::string run_dir = args.Positional()[0];
  auto prior = args.Real("prior-games", 1.0, 1e-6, 1e6);
  if (!prior) return UsageError("ratings", prior.error());
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) {
    return UsageError("ratings", run_dir + ": no such run directory");
  }

  const selfplay::RunMatches run = selfplay::LoadRunMatches(run_dir);
  for (const std::string& s : run.skipped) std::cerr << "veletas ratings: skipped " << s << "\n";
  if (run.matches.empty()) {
    std::string why = run.dir_exists
                          ? "no readable match records in " + selfplay::MatchesDir(run_dir)
                          : "no matches: " + selfplay::MatchesDir(run_dir) + " does not exist";
    if (!run.skipped.empty()) why += " (" + std::to_string(run.skipped.size()) + " skipped)";
    return UsageError("ratings", why);
  }
  // One ladder is one game: all matches must share the rules and board size; and a name
  // should always mean the same player.
  const selfplay::MatchRecord& first = run.matches.front();
  std::map<std::string, std::pair<std::string, std::string>> specs;  // name -> spec, match
  for (const selfplay::MatchRecord& m : run.matches) {
    if (m.rules != first.rules || m.size != first.size) {
      return UsageError("ratings", "match " + m.name + " is " + rules::RuleSetName(m.rules) + " " +
                                       std::to_string(m.size) + " but match " + first.name +
                                       " is " + rules::RuleSetName(first.rules) + " " +
                                       std::to_string(first.size) + "; one ladder needs one game");
    }
    for (const selfplay::MatchPlayer* p : {&m.a, &m.b}) {
      auto [it, inserted] = specs.emplace(p->name, std::make_pair(p->spec, m.name));
      if (!inserted && it->second.first != p->spec) {
        std::cerr << "veletas ratings: warning: " << p->name << " is \"" << it->second.first
                  << "\" in match " << it->second.second << " but \"" << p->spec << "\" in match "
                  << m.name << "; rated as one player\n";
      }
    }
  }

  selfplay::LadderOptions options;
  options.prior_games = prior.value();
  auto ladder = selfplay::ComputeLadder(selfplay::PairResults(run.matches), options);
  if (!ladder) {
    std::cerr << "veletas ratings: " << ladder.error() << "\n";
    return 1;
  }
  nlohmann::json j = selfplay::LadderToJson(ladder.value());
  j["rules"] = rules::RuleSetName(first.rules);
  j["size"] = first.size;
  nlohmann::json names = nlohmann::json::array();
  for (const selfplay::MatchRecord& m : run.matches) names.push_back(m.name);
  j["matches"] = names;
  j["skipped_files"] = run.skipped;
  nlohmann::json players_specs = nlohmann::json::object();
  for (const auto& [name, spec] : specs) players_specs[name] = spec.first;
  j["specs"] = players_specs;

  const std::string json_path = (fs::path(run_dir) / "ratings.json").string();
  const std::string png_path = (fs::path(run_dir) / "ratings.png").string();
  if (std::string e = util::WriteFileAtomic(json_path, j.dump(1) + "\n"); !e.empty()) {
    std::cerr << "veletas ratings: " << e << "\n";
    return 1;
  }
  if (std::string e = selfplay::WriteChartPng(png_path, RatingsChart(ladder.value())); !e.empty()) {
    std::cerr << "veletas ratings: " << e << "\n";
    return 1;
  }
  if (args.Has("json")) {
    std::cout << j.dump(1) << "\n";
  } else {
    std::cout << run.matches.size() << " matches";
    if (!run.skipped.empty()) std::cout << " (" << run.skipped.size() << " files skipped)";
    std::cout << "; Bradley-Terry ratings, random fixed at 0, prior " << options.prior_games
              << " virtual game(s) per pair\n\n";
    PrintTable(ladder.value(), std::cout);
    if (!ladder.value().players.back().rated) {
      std::cout << "(unrated: no chain of games links the player to an anchor)\n";
    }
    std::cout << "\nwrote " << json_path << " and " << png_path << "\n";
  }
  return 0;
}

}  // namespace

VELETAS_COMMAND(ratings, "ratings", "RUN_DIR [--json] [--prior-games X]",
                "rating ladder of a run from its match records (writes ratings.json, ratings.png)",
                RunRatings);

}  // namespace veletas::app
