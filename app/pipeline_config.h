// Settings of `veletas pipeline` (section `pipeline`): how many generations to train, the
// time budget, and the self-play, gating and rating schedule. Plain data; the YAML mapping
// is app/config_pipeline.cpp.
#pragma once

#include <cstdint>

namespace veletas::app {

struct PipelineConfig {
  // Generations to train at most (generation 0 is the random initial network).
  int generations = 20;
  // Run time (summed over restarts) after which no new generation is started; 0 = none.
  // A generation is only started when the time left is likely to be enough for it (the
  // mean duration of the generations so far), so a run ends within the budget.
  double time_budget_minutes = 0;
  // Self-play games per generation (of the current best network).
  int64_t games_per_generation = 400;
  // Self-play games of the first generation (random network); 0 = games_per_generation.
  int64_t first_generation_games = 0;
  // Gate every candidate against the best network (arena.gate); false = always promote.
  bool gate = true;
  // Play a rating-ladder round every this many generations (arena.ladder); 0 = only at
  // the end.
  int ladder_every = 1;
  // At the end, rate the best network if it has not been rated.
  bool final_ladder = true;
  // Seed of the initial network's weights.
  int64_t init_seed = 1;
};

}  // namespace veletas::app
