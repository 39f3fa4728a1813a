// Settings of the arena (evaluation matches), the promotion gate and the rating ladder:
// data with defaults, and each struct's Validate() with its allowed ranges
// (arena_settings.cpp), each struct's settings in one table there, which config/config_arena.cpp
// reads (section `arena` with nested `gate` and `ladder` mappings). Documented in docs/ARENA.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "arena/sprt.h"
#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::arena {

// How an arena match is played.
struct ArenaConfig {
  // Neural players' simulations per decision in gate and ladder matches (`veletas match`
  // takes them from the player spec instead). The other search settings come from the
  // `search` section with search::ForPlay applied (no root noise, temperature 0).
  int simulations = 200;
  // Games in flight at once; the neural players' searches of all of them are stepped
  // together and their leaves evaluated in one batch per model and round.
  int games_in_parallel = 64;
  // Worker threads for the moves of UCT players (each UCT player searches one tree on one
  // thread, so its strength does not depend on this).
  int threads = 2;
  // Full turns at the start of every game that are drawn at random (uniformly over full
  // turns) instead of chosen by the players; both games of a pair share them with the
  // seats swapped. 1 = the first player's setup placement. 0 = no random opening (then
  // two deterministic players repeat the same pair of games).
  int opening_turns = 1;
  // Seeds the openings and the players' random generators.
  uint64_t seed = 1;

  // The settings above, one row each (arena_settings.cpp).
  static std::span<const util::Field<ArenaConfig>> Fields();
  // Ok when usable, else the setting that is not (bad input, "threads: 0 is out of range
  // [1, 256]").
  util::Status Validate() const;
};

// The promotion gate: the candidate plays the current best (as player A) in batches of
// `batch_games` games, and `config` decides after every batch (SPRT, or a fixed number of
// games with a score threshold; arena/sprt.h).
struct GateSettings {
  GateConfig config = [] {
    GateConfig c;
    c.method = GateMethod::kSprt;
    c.sprt = SprtConfig{0.0, 50.0, 0.05, 0.05};
    c.max_games = 400;
    c.games = 200;
    c.threshold = 0.55;
    return c;
  }();
  // Games between two decisions; even, so that the seats stay balanced.
  int batch_games = 40;

  // The gate config's rows, then batch_games (arena_settings.cpp).
  static std::span<const util::Field<GateSettings>> Fields();
  // Ok when usable, else the setting that is not (the gate config's keys, batch_games even
  // and in [2, 10^6]).
  util::Status Validate() const;
};

// The rating ladder played after each generation (arena/ladder.h).
struct LadderConfig {
  // UCT-rollout anchors (random playouts per turn), besides the uniform random player, which
  // is always an anchor (fixed at Elo 0 by `veletas ratings`).
  std::vector<int> uct_anchors = {100, 1000};
  // Games of each anchor-vs-anchor match (random vs the smallest UCT anchor, then each UCT
  // anchor vs the next larger), played once per run.
  int anchor_games = 100;
  // Games of the new generation against each anchor.
  int games_vs_anchors = 40;
  // How many earlier generations (the latest ones) the new generation plays, and the
  // games of each of those matches.
  int previous_generations = 2;
  int games_vs_previous = 40;

  // The settings above, one row each (arena_settings.cpp).
  static std::span<const util::Field<LadderConfig>> Fields();
  // Ok when usable, else the setting that is not.
  util::Status Validate() const;
};

// The `arena` config section.
struct ArenaSettings {
  ArenaConfig arena;
  GateSettings gate;
  LadderConfig ladder;

  // The arena config's rows, then the nested mappings `gate` and `ladder`.
  static std::span<const util::Field<ArenaSettings>> Fields();
  // Ok when all three are usable, else the first setting that is not ("gate.elo1: ...").
  util::Status Validate() const;
};

}  // namespace veletas::arena
