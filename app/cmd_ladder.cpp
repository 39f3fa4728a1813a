// `veletas ladder --run DIR --model CKPT [--previous CKPT,...] [--config FILE]`: one round of
// the rating ladder (arena/ladder.h) from the command line: the network plays the anchors
// (random, uct:N for the config's arena.ladder.uct_anchors; anchor-vs-anchor matches once
// per run) and the given earlier networks, the matches go to RUN_DIR/matches/, and the
// ladder of the whole run is printed. MODEL and PREVIOUS are checkpoints (named gen_<N>
// from their metadata, played with arena.simulations) or player specs.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/arena_cli.h"
#include "app/arena_models.h"
#include "app/args.h"
#include "app/command.h"
#include "app/config.h"
#include "arena/ladder.h"
#include "arena/ratings.h"
#include "rules/notation.h"

namespace veletas::app {
namespace {

constexpr const char* kCmd = "ladder";

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const size_t end = comma == std::string::npos ? text.size() : comma;
    if (end > start) out.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

int RunLadder(const std::vector<std::string>& argv) {
  auto parsed = ParseArgs({{"run", true},
                           {"model", true},
                           {"previous", true},
                           {"config", true},
                           {"size", true},
                           {"rules", true},
                           {"json", false}},
                          argv, 0);
  if (!parsed) return UsageError(kCmd, parsed.error());
  const ParsedArgs& args = parsed.value();
  if (!args.Has("run") || !args.Has("model")) {
    return UsageError(kCmd, "expected --run DIR --model CKPT");
  }
  auto loaded_config = ConfigFromArgs(args);
  if (!loaded_config) return UsageError(kCmd, loaded_config.error());
  const Config& config = loaded_config.value();
  const rules::RuleSet rs = config.game.rules;
  const int size = config.game.size;
  const int sims = config.arena.arena.simulations;

  ArenaModels models(rs, size, config.model, config.evaluator);
  auto newcomer = PlayerOption("model", *args.Value("model"), sims, models, config.search);
  if (!newcomer) return UsageError(kCmd, newcomer.error());
  std::vector<arena::ArenaPlayer> previous;
  for (const std::string& text : SplitCommas(args.Value("previous").value_or(""))) {
    auto p = PlayerOption("previous", text, sims, models, config.search);
    if (!p) return UsageError(kCmd, p.error());
    previous.push_back(p.value());
  }

  const std::string run_dir = *args.Value("run");
  const bool json_out = args.Has("json");
  std::ostream& info = json_out ? std::cerr : std::cout;
  info << "ladder round for " << newcomer.value().name << " (" << newcomer.value().spec.ToString()
       << "), " << rules::RuleSetName(rs) << " " << size << "x" << size << "\n";
  std::string current;
  std::unique_ptr<ProgressLine> progress;
  auto on_progress = [&](const std::string& match, const arena::ArenaProgress& p) {
    if (match != current) {
      if (progress) progress->Done();
      progress = std::make_unique<ProgressLine>(match);
      current = match;
    }
    progress->Update(p);
  };
  const auto result = arena::RunLadderRound(run_dir, rs, size, newcomer.value(), previous,
                                            config.arena.arena, config.arena.ladder, on_progress);
  if (progress) progress->Done();
  if (!result) {
    std::cerr << "veletas ladder: " << result.error() << "\n";
    return 1;
  }
  const arena::LadderRoundResult& r = result.value();
  for (const std::string& s : r.skipped_files) std::cerr << "veletas ladder: skipped " << s << "\n";
  for (const auto& m : r.matches) {
    for (const std::string& note : m.notes) std::cerr << "veletas ladder: " << note << "\n";
  }
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
    j["ladder"] = r.ladder ? arena::LadderToJson(*r.ladder) : nlohmann::json(nullptr);
    if (!r.ladder) j["ladder_error"] = r.ladder_error;
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  for (const auto& m : r.matches) {
    std::cout << m.name << ": " << m.a << " " << m.a_wins << " - " << m.b_wins << " " << m.b
              << (m.existed ? " (played before)" : "") << "\n";
  }
  if (!r.ladder) {
    std::cout << "no ladder: " << r.ladder_error << "\n";
    return 0;
  }
  std::cout << "\nladder of the run (random fixed at 0):\n";
  for (const arena::PlayerRating& p : r.ladder->players) {
    char line[256];
    if (!p.rated) {
      std::snprintf(line, sizeof line, "  %-20s unrated\n", p.name.c_str());
    } else if (p.fixed) {
      std::snprintf(line, sizeof line, "  %-20s %+8.1f  fixed anchor  %d games\n", p.name.c_str(),
                    p.elo, p.games);
    } else {
      std::snprintf(line, sizeof line, "  %-20s %+8.1f  [%+.1f, %+.1f]  %d games\n", p.name.c_str(),
                    p.elo, p.ci_low, p.ci_high, p.games);
    }
    std::cout << line;
  }
  std::cout << "(`veletas ratings " << run_dir << "` writes ratings.json and ratings.png)\n";
  return 0;
}

}  // namespace

VELETAS_COMMAND(ladder, "ladder",
                "--run DIR --model CKPT [--previous CKPT,...] [--config FILE] [--size N] "
                "[--rules R] [--json]",
                "rating-ladder round: the model against the anchors and earlier models; "
                "matches go to RUN_DIR/matches/",
                RunLadder);

}  // namespace veletas::app
