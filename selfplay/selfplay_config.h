// Settings of the self-play generator (selfplay/selfplay_engine.h): data with defaults and
// Validate() with the allowed ranges: one table of settings (selfplay_config.cpp), which
// config/config_selfplay.cpp reads (section `selfplay`). The search itself is configured by
// search::SearchConfig (its `simulations` is not used by self-play: full_simulations /
// cheap_simulations are) and the batching front end by search::BatchingConfig.
#pragma once

#include <cstdint>
#include <span>

#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::selfplay {

struct SelfplayConfig {
  // Worker threads; each drives games_in_flight games and sends all their leaves to the
  // one batching evaluator in one request per step.
  int threads = 2;
  // Games each worker keeps in flight.
  int games_in_flight = 64;
  // Leaves one search collects per step (virtual loss keeps them apart). A worker's request
  // per step is about games_in_flight * leaves_per_search positions.
  int leaves_per_search = 4;

  // Playout cap randomisation (KataGo): a decision gets a full search with probability
  // full_search_probability and is recorded as a sample; otherwise it gets a cheap search
  // (no root noise) and is played but not recorded.
  int full_simulations = 200;
  int cheap_simulations = 40;
  float full_search_probability = 0.25f;
  // Setup decisions (shooter and stone placements, the pie decision) always get a full
  // search (good openings matter for every sample after them) ...
  bool setup_full_search = true;
  // ... but are recorded only with this probability: every game starts from the same empty
  // board, so setup samples are near-duplicates whose outcome is mostly noise (recording all
  // of them made a third of all samples).
  float setup_record_probability = 0.25f;
  // Opening diversity: setup decisions play an action drawn from the search's policy
  // target raised to 1/setup_temperature (both PUCT and Gumbel); 0 = the search's own
  // choice. The play phase uses search.temperature / temperature_turns /
  // final_temperature (PUCT) or the sequential-halving winner (Gumbel).
  float setup_temperature = 1.0f;
  // The root value recorded with a setup sample (key setup_value_target): the value of the
  // search's own choice (`chosen`, false) or of the action drawn and played (`played`, true),
  // whose value the game's outcome follows. Play-phase samples always take the search's
  // choice, which is the action played there.
  bool setup_value_of_played = false;
  // (The pie decision weighs swapping, one action, against a few dozen declining
  // placements: the Gumbel root always samples the swap; see search::SearchConfig.)

  // Games per sample file: file <prefix>_<k>.vzs holds games k*games_per_file ..
  // (k+1)*games_per_file - 1 of the run.
  int games_per_file = 100;

  // Resignation: a player resigns at the start of a play-phase turn when the search's root
  // value (for that player) was below resign_threshold at this and its previous
  // resign_consecutive - 1 turn starts. -1 disables resignation (values are never below
  // -1). A fraction no_resign_fraction of games never resigns; they measure the rule's
  // false-positive rate (with resignation off, every game measures it). The root value is the
  // chosen action's (search::SearchResult).
  float resign_threshold = -0.9f;
  int resign_consecutive = 3;
  float no_resign_fraction = 0.1f;
  // When > 0, the pipeline sets each generation's threshold from the previous generation's
  // no-resign games: the highest threshold whose false-positive rate (would-be resigners
  // who won) stays at most this (AlphaGo Zero's 5%); resign_threshold is the first
  // generation's. 0 = resign_threshold throughout.
  float resign_false_positive_target = 0.05f;

  // Base seed; each game's seed is derived from (seed, generation, game index).
  uint64_t seed = 1;

  // The settings above, one row each (key, member, range, help; selfplay_config.cpp).
  static std::span<const util::Field<SelfplayConfig>> Fields();
  // Ok when usable, else the setting that is not (bad input, "cheap_simulations: 300 is
  // more than full_simulations (200)"): the rows of Fields(), then the rules between them.
  util::Status Validate() const;
};

// Whether a resignation threshold turns resignation off (the pipeline's calibration writes -1
// for "off"): a root value is never below -1, so no player resigns at it.
constexpr bool ResignationOff(float resign_threshold) { return resign_threshold <= -1.0f; }

}  // namespace veletas::selfplay
