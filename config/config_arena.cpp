// YAML mapping of the arena's settings: section `arena` (arena::ArenaSettings) with the
// nested mappings `gate` (the promotion gate) and `ladder` (the rating-ladder rounds).
// Keys and defaults are listed in docs/ARENA.md; the ranges are the structs' Validate().
#include <climits>

#include "config/config.h"

namespace veletas::config {
namespace {

void ParseGate(ConfigSection& s, arena::GateSettings& out) {
  arena::GateConfig& g = out.config;
  const std::string method =
      s.Choice("method", arena::GateMethodName(g.method), {"sprt", "fixed_games"});
  g.method = method == "sprt" ? arena::GateMethod::kSprt : arena::GateMethod::kFixedGames;
  g.sprt.elo0 = s.Real("elo0", g.sprt.elo0);
  g.sprt.elo1 = s.Real("elo1", g.sprt.elo1);
  g.sprt.alpha = s.Real("alpha", g.sprt.alpha);
  g.sprt.beta = s.Real("beta", g.sprt.beta);
  g.max_games = s.SmallInt("max_games", g.max_games);
  g.games = s.SmallInt("games", g.games);
  g.threshold = s.Real("threshold", g.threshold);
  out.batch_games = s.SmallInt("batch_games", out.batch_games);
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

void ParseLadder(ConfigSection& s, arena::LadderConfig& out) {
  std::vector<long long> anchors(out.uct_anchors.begin(), out.uct_anchors.end());
  anchors = s.IntList("uct_anchors", anchors, INT_MIN, INT_MAX);  // ints; ranges: Validate()
  out.uct_anchors.assign(anchors.begin(), anchors.end());
  out.anchor_games = s.SmallInt("anchor_games", out.anchor_games);
  out.games_vs_anchors = s.SmallInt("games_vs_anchors", out.games_vs_anchors);
  out.previous_generations = s.SmallInt("previous_generations", out.previous_generations);
  out.games_vs_previous = s.SmallInt("games_vs_previous", out.games_vs_previous);
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

}  // namespace

void ParseArenaSection(ConfigSection& s, arena::ArenaSettings& out) {
  arena::ArenaConfig& a = out.arena;
  a.simulations = s.SmallInt("simulations", a.simulations);
  a.games_in_parallel = s.SmallInt("games_in_parallel", a.games_in_parallel);
  a.threads = s.SmallInt("threads", a.threads);
  a.opening_turns = s.SmallInt("opening_turns", a.opening_turns);
  a.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(a.seed), 0, 1LL << 62));
  {
    ConfigSection g = s.Section("gate");
    ParseGate(g, out.gate);
  }
  {
    ConfigSection l = s.Section("ladder");
    ParseLadder(l, out.ladder);
  }
  s.Check(a.Validate());
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
