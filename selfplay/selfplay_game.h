// One self-play game in progress: the position, the record, the samples of its recorded
// decisions, shooter identities for the auxiliary targets, and the resignation rule.
// Driven by the engine (selfplay/selfplay_engine.h); usable alone in tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "data/sample.h"
#include "rules/position.h"
#include "rules/turns.h"
#include "search/mcts.h"
#include "selfplay/selfplay_config.h"
#include "selfplay/spot_check.h"
#include "util/random.h"

namespace veletas::selfplay {

// The seed of game `index` of generation `generation` under base seed `seed`: a
// util::SplitMix64-style mix of the three, so that no two games of a run (or of two generations)
// share a seed. Pure function.
uint64_t GameSeed(uint64_t seed, uint64_t generation, uint64_t index);

// The resignation rule of one game, for both players (persons 0 and 1). Not thread-safe.
class ResignTracker {
 public:
  // Preconditions: consecutive >= 1.
  ResignTracker(float threshold, int consecutive)
      : threshold_(threshold), consecutive_(consecutive) {}
  // Records `value`, the root value for `person` at one of that person's play-phase turn
  // starts. Returns true when the rule fires: this and the person's previous
  // consecutive - 1 values were all below the threshold. A value at or above the threshold
  // resets that person's count.
  bool Observe(int person, float value);
  // Whether the rule fired for `person` at least once in this game.
  bool Fired(int person) const { return fired_[person]; }
  // The person's resignation level: the rule fires for them (in this game so far) at every
  // threshold above it and at none at or below it, i.e. the lowest, over runs of
  // `consecutive` successive values, of the run's highest value. kNeverLevel when the
  // person has had fewer than `consecutive` values.
  float Level(int person) const { return level_[person]; }
  static constexpr float kNeverLevel = 2.0f;

 private:
  float threshold_;
  int consecutive_;
  std::array<int, 2> low_{};
  std::array<bool, 2> fired_{};
  std::array<std::vector<float>, 2> recent_;  // the last `consecutive` values per person
  std::array<float, 2> level_{kNeverLevel, kNeverLevel};
};

// A game that has ended (by the rules or by resignation), with its samples' targets filled
// in.
struct FinishedGame {
  uint64_t index = 0;
  // Of positions of the record where a decision was played, in order: a resigned game has
  // none of its last position (where its player resigned, and nothing was played).
  std::vector<data::Sample> samples;
  // The root summary of each sample's search (parallel to samples), for spot checks.
  std::vector<RootSummary> summaries;
  data::GameRecord record;
  int turns = 0;          // full turns played (Position::TurnsPlayed at the end)
  int winner_person = 0;  // 0 first player, 1 second
  rules::Color winner_color = rules::Color::kBlack;
  bool swapped = false;  // the pie rule's swap was taken
  bool resigned = false;
  bool no_resign = false;  // a game that never resigns (false-positive measurement)
  // no_resign games: whether the resignation rule would have fired for each person, and
  // each person's resignation level (ResignTracker::Level).
  std::array<bool, 2> would_resign{};
  std::array<float, 2> resign_level{ResignTracker::kNeverLevel, ResignTracker::kNeverLevel};
  int full_decisions = 0;    // searched with the full budget (recorded unless setup)
  int cheap_decisions = 0;   // searched with the cheap budget, not recorded
  int forced_decisions = 0;  // a single legal action: played without a search, not recorded
};

// The budget of one decision.
struct Budget {
  bool full = false;    // full_simulations with root noise (else cheap_simulations, no noise)
  bool record = false;  // recorded as a training sample (only full searches are)
};

// Not thread-safe; one worker drives a game.
class SelfplayGame {
 public:
  // `config` must outlive the game.
  explicit SelfplayGame(const SelfplayConfig& config) : config_(config), resign_(0, 1) {}

  // Starts game `index` from the empty board, its generator seeded with `seed`; draws
  // whether it is a no-resign game.
  void Start(rules::RuleSet rules, int size, uint64_t index, uint64_t seed);
  const rules::Position& Pos() const { return pos_; }

  // Draws the budget of the next decision: full and recorded with probability
  // config.full_search_probability; setup decisions are full when config.setup_full_search
  // and recorded with probability config.setup_record_probability.
  Budget DrawBudget();
  // Appends a sample of the current position from the finished search `r` of it (policy
  // target, root value, shooter identities). Aux targets and outcome come at Finish.
  // `played` is the action the game plays (ChooseAction): with config.setup_value_of_played
  // (key setup_value_target: played), a setup sample's root value is that action's value in `r`
  // (and its root summary names it as chosen); otherwise every sample has r.value, the value of
  // r.action.
  void RecordSample(const search::SearchResult& r, rules::Action played);
  void CountDecision(bool full) { full ? ++full_ : ++cheap_; }
  // The action to play from the search result: during setup, drawn from the policy target
  // raised to 1/config.setup_temperature (when > 0); else r.action.
  rules::Action ChooseAction(const search::SearchResult& r);
  // The resignation rule at the current decision with root value `value` for the player
  // to move. Only play-phase turn starts count. Returns true when the game ends now by
  // resignation of the player to move (never in a no-resign game, where it is noted
  // instead).
  bool CheckResign(float value);
  // Plays `a` (legal). `forced`: a single legal action played without a search.
  void Apply(rules::Action a, bool forced = false);
  // Over by the rules or by resignation.
  bool Over() const { return pos_.IsTerminal() || resigned_; }
  // Fills in outcomes and aux targets and hands the game over. Precondition: Over().
  FinishedGame Finish();

 private:
  struct PendingSample {
    data::Sample sample;
    RootSummary summary;
    std::vector<int8_t> shooter_ids;  // parallel to sample.aux
  };

  const SelfplayConfig& config_;
  rules::Position pos_;
  uint64_t index_ = 0;
  util::Rng rng_;
  bool no_resign_ = false;
  bool resigned_ = false;
  ResignTracker resign_;
  std::vector<PendingSample> samples_;
  // Shooter identity standing on each square (-1: none); identities are numbered in
  // placement order and follow their shooter's moves.
  std::array<int8_t, rules::kMaxSquares> shooter_id_{};
  int next_shooter_id_ = 0;
  std::string record_;
  rules::Position turn_start_;
  rules::Turn turn_;
  int full_ = 0, cheap_ = 0, forced_ = 0;
};

// True for the setup sub-decisions (shooter and stone placement, the pie decision).
inline bool IsSetupDecision(rules::Decision d) {
  return d == rules::Decision::kSetupShooter || d == rules::Decision::kSetupStone ||
         d == rules::Decision::kPie;
}

}  // namespace veletas::selfplay
