#include "app/config.h"

namespace veletas::app {

void ParsePipelineSection(ConfigSection& s, PipelineConfig& out) {
  out.generations = static_cast<int>(s.Int("generations", out.generations, 1, 100000));
  out.time_budget_minutes = s.Real("time_budget_minutes", out.time_budget_minutes, 0, 1e7);
  out.games_per_generation =
      s.Int("games_per_generation", out.games_per_generation, 1, 100'000'000);
  out.first_generation_games =
      s.Int("first_generation_games", out.first_generation_games, 0, 100'000'000);
  out.gate = s.Bool("gate", out.gate);
  out.ladder_every = static_cast<int>(s.Int("ladder_every", out.ladder_every, 0, 100000));
  out.final_ladder = s.Bool("final_ladder", out.final_ladder);
  out.init_seed = s.Int("init_seed", out.init_seed, 0, (1LL << 62));
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
