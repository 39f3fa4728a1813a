// Settings of `veletas pipeline` (section `pipeline`): how many generations to train, the
// time budget, and the self-play, gating and rating schedule. Data with defaults, one table
// of settings and Validate() (pipeline_settings.cpp). Here in config/, below pipeline/,
// which uses them.
#pragma once

#include <cstdint>
#include <span>

#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::config {

// How a trained generation becomes the network that plays self-play.
enum class Promotion {
  // AlphaGo Zero: the candidate plays the best network (arena.gate: SPRT or fixed games)
  // and replaces it only when measurably stronger.
  kGate,
  // KataGo / AlphaZero: the newest network always plays self-play, unless a cheap check
  // (check_games games against the best) shows it clearly worse: an SPRT of
  // H0: elo = -check_elo against H1: elo = 0 that accepts H0.
  kLatest,
  // Every generation is promoted without games.
  kAlways,
};

// Their names in config files and reports.
inline constexpr util::Choice<Promotion> kPromotionChoices[] = {
    {Promotion::kGate, "gate"}, {Promotion::kLatest, "latest"}, {Promotion::kAlways, "always"}};

// "gate", "latest", "always".
inline const char* PromotionName(Promotion p) {
  return util::ChoiceName<Promotion>(kPromotionChoices, p);
}

struct PipelineConfig {
  // Generations to train at most (generation 0 is the random initial network).
  int generations = 20;
  // Run time (summed over restarts) after which no new generation is started; 0 = none.
  // A generation is only started when the time left is likely to be enough for it (the
  // mean duration of the generations so far), so a run ends within the budget.
  double time_budget_minutes = 0;
  // The same for the CPU time of the pipeline process (all its threads, summed over
  // restarts), e.g. 110 = 55 minutes on 2 fully used cores; 0 = none. Meant for comparing
  // settings on a machine that also runs other work.
  double cpu_budget_minutes = 0;
  // Self-play games per generation (of the current best network).
  int64_t games_per_generation = 400;
  // Self-play games of the first generation (random network); 0 = games_per_generation.
  int64_t first_generation_games = 0;
  Promotion promotion = Promotion::kGate;
  // kLatest's check: games (even) and the Elo deficit that counts as clearly worse.
  int check_games = 20;
  double check_elo = 200;
  // Play a rating-ladder round every this many generations (arena.ladder); 0 = only at
  // the end.
  int ladder_every = 1;
  // At the end, rate the best network if it has not been rated.
  bool final_ladder = true;
  // Seed of the initial network's weights.
  int64_t init_seed = 1;

  // The settings above, one row each (key, member, range, help; pipeline_settings.cpp).
  static std::span<const util::Field<PipelineConfig>> Fields();
  // Ok when usable, else the setting that is not (bad input, "check_games: 3 is odd ...").
  util::Status Validate() const;
};

}  // namespace veletas::config
