#include "arena/ladder.h"

#include <algorithm>

#include "arena/arena_journal.h"
#include "arena/arena_record.h"
#include "arena/match_record.h"
#include "util/checksum.h"

namespace veletas::arena {

std::vector<long long> PreviousGenerationsToPlay(long long generation,
                                                 std::vector<long long> available, int count) {
  std::sort(available.begin(), available.end(), std::greater<>());
  available.erase(std::unique(available.begin(), available.end()), available.end());
  std::vector<long long> out;
  for (long long g : available) {
    if (static_cast<int>(out.size()) >= count) break;
    if (g < generation) out.push_back(g);
  }
  return out;
}

std::vector<ArenaPlayer> LadderAnchors(const LadderConfig& config) {
  std::vector<int> budgets = config.uct_anchors;
  std::sort(budgets.begin(), budgets.end());
  budgets.erase(std::unique(budgets.begin(), budgets.end()), budgets.end());
  std::vector<ArenaPlayer> out{MakeBaselinePlayer(PlayerSpec{})};
  for (int n : budgets) out.push_back(MakeBaselinePlayer(PlayerSpec{PlayerKind::kUct, n, ""}));
  return out;
}

namespace {

// Plays one match unless its file exists; appends its report.
util::Result<bool> PlayLadderMatch(const std::string& run_dir, rules::RuleSet rules, int size,
                                   const std::string& name, const ArenaPlayer& a,
                                   const ArenaPlayer& b, int games, const ArenaConfig& base,
                                   const LadderProgressFn& progress, RemoteGames* remote,
                                   std::vector<LadderMatchReport>& reports) {
  LadderMatchReport report;
  report.name = name;
  report.a = a.name;
  report.b = b.name;
  auto existing = ReadFinishedMatch(run_dir, name, report.notes);
  if (!existing) return existing.error_value();
  if (existing.value()) {
    const MatchRecord& record = *existing.value();
    report.existed = true;
    report.a_wins = record.AWins();
    report.b_wins = record.BWins();
    report.elo = record.Elo();
    reports.push_back(report);
    return true;
  }
  ArenaConfig config = base;
  config.seed = base.seed ^ util::Checksum64(name);
  if (util::Status e = ValidateArena(a, b, rules, size, config); !e.ok()) {
    return util::Prefixed(e.error_value(), "ladder match " + name + ": ");
  }
  JournaledMatch match(run_dir, name, a, b, rules, size, config, remote);
  const Arena& arena = match.arena();
  if (util::Status s = match.Open(report.notes); !s.ok()) return s.error_value();
  const util::Status played = match.Play(games, [&](const ArenaProgress& p) {
    if (progress) progress(name, p);
  });
  if (!played.ok()) return played.error_value();
  if (auto saved = match.Save(std::nullopt); !saved) return saved.error_value();
  report.a_wins = arena.AWins();
  report.b_wins = arena.BWins();
  report.elo = arena.Elo();
  report.stats = arena.Stats();
  reports.push_back(report);
  return true;
}

}  // namespace

util::Result<LadderRoundResult> RunLadderRound(const std::string& run_dir, rules::RuleSet rules,
                                               int size, const ArenaPlayer& newcomer,
                                               const std::vector<ArenaPlayer>& previous,
                                               const ArenaConfig& arena, const LadderConfig& ladder,
                                               const LadderProgressFn& progress,
                                               RemoteGames* remote) {
  using R = util::Result<LadderRoundResult>;
  const std::vector<ArenaPlayer> anchors = LadderAnchors(ladder);
  std::vector<const ArenaPlayer*> players{&newcomer};
  for (const ArenaPlayer& p : previous) players.push_back(&p);
  for (const ArenaPlayer& anchor : anchors) {
    for (const ArenaPlayer* p : players) {
      if (p->name == anchor.name) {
        return R::Error("ladder: player \"" + p->name + "\" has the name of an anchor");
      }
    }
  }
  for (int games : {ladder.anchor_games, ladder.games_vs_anchors, ladder.games_vs_previous}) {
    if (games < 0) return R::Error("ladder: game counts must be >= 0");
  }
  LadderRoundResult out;
  auto play = [&](const std::string& prefix, const ArenaPlayer& a, const ArenaPlayer& b,
                  int games) -> std::string {
    if (games == 0) return "";
    auto r = PlayLadderMatch(run_dir, rules, size, MakeMatchName(prefix, a.name, b.name), a, b,
                             games, arena, progress, remote, out.matches);
    return r ? "" : r.error();
  };
  for (size_t i = 0; i + 1 < anchors.size(); ++i) {
    if (std::string e = play("anchors_", anchors[i], anchors[i + 1], ladder.anchor_games);
        !e.empty()) {
      return R::Error(e);
    }
  }
  for (const ArenaPlayer& anchor : anchors) {
    if (std::string e = play("ladder_", newcomer, anchor, ladder.games_vs_anchors); !e.empty()) {
      return R::Error(e);
    }
  }
  for (const ArenaPlayer& p : previous) {
    if (std::string e = play("ladder_", newcomer, p, ladder.games_vs_previous); !e.empty()) {
      return R::Error(e);
    }
  }
  const RunMatches run = LoadRunMatches(run_dir);
  out.skipped_files = run.skipped;
  auto rated = ComputeLadder(PairResults(run.matches));
  if (rated) {
    out.ladder = rated.value();
  } else {
    out.ladder_error = rated.error();
  }
  return out;
}

}  // namespace veletas::arena
