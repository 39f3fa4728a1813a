#include "arena/arena_settings.h"

#include <string>

#include "arena/player_spec.h"
#include "util/settings_check.h"

namespace veletas::arena {

namespace {

const util::Field<SprtConfig> kSprtFields[] = {
    util::RealField("elo0", &SprtConfig::elo0, -2000, 2000, "SPRT: Elo of H0"),
    util::RealField("elo1", &SprtConfig::elo1, -2000, 2000, "SPRT: Elo of H1 (above elo0)"),
    util::RealField("alpha", &SprtConfig::alpha, 0.0, 0.5, "SPRT: type I error",
                    util::Ends::kOpenLow),
    util::RealField("beta", &SprtConfig::beta, 0.0, 0.5, "SPRT: type II error",
                    util::Ends::kOpenLow),
};

const util::Field<GateConfig> kGateConfigFields[] = {
    util::EnumField<&GateConfig::method, kGateMethodChoices>("method", "how the gate decides"),
    util::NestedField<&GateConfig::sprt>("", "the SPRT"),
    util::IntField("max_games", &GateConfig::max_games, 0, 10'000'000,
                   "SPRT: games without a decision after which it stops; 0 = no cap"),
    util::IntField("games", &GateConfig::games, 1, 10'000'000, "fixed_games: games"),
    util::RealField("threshold", &GateConfig::threshold, 0.0, 1.0,
                    "fixed_games: score that promotes", util::Ends::kOpenLow),
};

const util::Field<ArenaConfig> kArenaFields[] = {
    util::IntField("simulations", &ArenaConfig::simulations, 1, kMaxMctsSimulations,
                   "neural players' simulations per decision"),
    util::IntField("games_in_parallel", &ArenaConfig::games_in_parallel, 1, 65536,
                   "games in flight at once"),
    util::IntField("threads", &ArenaConfig::threads, 1, 256, "threads for UCT players' moves"),
    util::IntField("opening_turns", &ArenaConfig::opening_turns, 0, 20,
                   "random full turns at the start of a game"),
    util::SeedField("seed", &ArenaConfig::seed, "seeds the openings and the players"),
};

const util::Field<GateSettings> kGateFields[] = {
    util::NestedField<&GateSettings::config>("", "the gate's test"),
    util::IntField("batch_games", &GateSettings::batch_games, 2, 1'000'000,
                   "games between two decisions (even)"),
};

const util::Field<LadderConfig> kLadderFields[] = {
    util::IntListField("uct_anchors", &LadderConfig::uct_anchors, 1, kMaxUctPlayouts,
                       "UCT anchors' playouts per turn"),
    util::IntField("anchor_games", &LadderConfig::anchor_games, 0, 1'000'000,
                   "games of each anchor-vs-anchor match"),
    util::IntField("games_vs_anchors", &LadderConfig::games_vs_anchors, 0, 1'000'000,
                   "games of a new generation against each anchor"),
    util::IntField("previous_generations", &LadderConfig::previous_generations, 0, 1000,
                   "earlier generations a new one plays"),
    util::IntField("games_vs_previous", &LadderConfig::games_vs_previous, 0, 1'000'000,
                   "games against each of them"),
};

const util::Field<ArenaSettings> kArenaSettingsFields[] = {
    util::NestedField<&ArenaSettings::arena>("", "how matches are played"),
    util::NestedField<&ArenaSettings::gate>("gate", "the promotion gate"),
    util::NestedField<&ArenaSettings::ladder>("ladder", "the rating ladder"),
};

}  // namespace

// The settings of arena/sprt.h (SprtConfig, GateConfig) are here, so that the settings target
// holds every check of the arena's settings.
std::span<const util::Field<SprtConfig>> SprtConfig::Fields() { return kSprtFields; }

util::Status SprtConfig::Validate() const {
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.That(
      elo0 < elo1, "elo1",
      util::FormatSetting(elo1) + " must be greater than elo0 (" + util::FormatSetting(elo0) + ")");
  return c.Result();
}

const char* GateMethodName(GateMethod m) {
  return util::ChoiceName<GateMethod>(kGateMethodChoices, m);
}

std::span<const util::Field<GateConfig>> GateConfig::Fields() { return kGateConfigFields; }

util::Status GateConfig::Validate() const { return util::ValidateFields(*this); }

std::span<const util::Field<ArenaConfig>> ArenaConfig::Fields() { return kArenaFields; }

util::Status ArenaConfig::Validate() const { return util::ValidateFields(*this); }

std::span<const util::Field<GateSettings>> GateSettings::Fields() { return kGateFields; }

util::Status GateSettings::Validate() const {
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.That(batch_games % 2 == 0, "batch_games",
         std::to_string(batch_games) + " is odd; games are played in pairs with the seats swapped");
  return c.Result();
}

std::span<const util::Field<LadderConfig>> LadderConfig::Fields() { return kLadderFields; }

util::Status LadderConfig::Validate() const { return util::ValidateFields(*this); }

std::span<const util::Field<ArenaSettings>> ArenaSettings::Fields() { return kArenaSettingsFields; }

util::Status ArenaSettings::Validate() const { return util::ValidateFields(*this); }

}  // namespace veletas::arena
