// YAML mapping of the arena's settings: section `arena` (arena::ArenaSettings) with the
// nested mappings `gate` (the promotion gate) and `ladder` (the rating-ladder rounds).
// Keys and defaults are listed in docs/ARENA.md.
#include <cstdio>

#include "app/config.h"
#include "arena/player_spec.h"

namespace veletas::app {
namespace {

void ParseGate(ConfigSection& s, arena::GateSettings& out) {
  arena::GateConfig& g = out.config;
  const std::string method =
      s.Choice("method", arena::GateMethodName(g.method), {"sprt", "fixed_games"});
  g.method = method == "sprt" ? arena::GateMethod::kSprt : arena::GateMethod::kFixedGames;
  g.sprt.elo0 = s.Real("elo0", g.sprt.elo0, -2000, 2000);
  g.sprt.elo1 = s.Real("elo1", g.sprt.elo1, -2000, 2000);
  if (!(g.sprt.elo0 < g.sprt.elo1)) {
    char text[96];
    std::snprintf(text, sizeof text, "%g must be greater than elo0 (%g)", g.sprt.elo1, g.sprt.elo0);
    throw ConfigError(s.Where("elo1") + text);
  }
  g.sprt.alpha = s.Real("alpha", g.sprt.alpha, 1e-9, 0.5);
  g.sprt.beta = s.Real("beta", g.sprt.beta, 1e-9, 0.5);
  g.max_games = s.SmallInt("max_games", g.max_games, 0, 10'000'000);
  g.games = s.SmallInt("games", g.games, 1, 10'000'000);
  g.threshold = s.Real("threshold", g.threshold, 0.01, 1.0);
  out.batch_games = s.SmallInt("batch_games", out.batch_games, 2, 1'000'000);
  if (out.batch_games % 2 != 0) {
    throw ConfigError(s.Where("batch_games") + std::to_string(out.batch_games) +
                      " is odd; games are played in pairs with the seats swapped");
  }
  if (std::string e = arena::ValidateGateSettings(out); !e.empty()) {
    throw ConfigError(s.Where("method") + e);
  }
  s.RejectUnknownKeys();
}

void ParseLadder(ConfigSection& s, arena::LadderConfig& out) {
  std::vector<long long> anchors(out.uct_anchors.begin(), out.uct_anchors.end());
  anchors = s.IntList("uct_anchors", anchors, 1, arena::kMaxUctPlayouts);
  out.uct_anchors.assign(anchors.begin(), anchors.end());
  out.anchor_games = s.SmallInt("anchor_games", out.anchor_games, 0, 1'000'000);
  out.games_vs_anchors = s.SmallInt("games_vs_anchors", out.games_vs_anchors, 0, 1'000'000);
  out.previous_generations = s.SmallInt("previous_generations", out.previous_generations, 0, 1000);
  out.games_vs_previous = s.SmallInt("games_vs_previous", out.games_vs_previous, 0, 1'000'000);
  s.RejectUnknownKeys();
}

}  // namespace

void ParseArenaSection(ConfigSection& s, arena::ArenaSettings& out) {
  arena::ArenaConfig& a = out.arena;
  a.simulations = s.SmallInt("simulations", a.simulations, 1, arena::kMaxMctsSimulations);
  a.games_in_parallel = s.SmallInt("games_in_parallel", a.games_in_parallel, 1, 65536);
  a.threads = s.SmallInt("threads", a.threads, 1, 256);
  a.opening_turns = s.SmallInt("opening_turns", a.opening_turns, 0, 20);
  a.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(a.seed), 0, 1LL << 62));
  {
    ConfigSection g = s.Section("gate");
    ParseGate(g, out.gate);
  }
  {
    ConfigSection l = s.Section("ladder");
    ParseLadder(l, out.ladder);
  }
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
