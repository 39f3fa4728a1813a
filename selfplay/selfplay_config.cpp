#include "selfplay/selfplay_config.h"

#include <string>

#include "util/settings_check.h"

namespace veletas::selfplay {

namespace {

// setup_value_target: whose value a setup sample records.
constexpr util::Choice<bool> kSetupValueChoices[] = {{false, "chosen"}, {true, "played"}};

using S = SelfplayConfig;
const util::Field<S> kFields[] = {
    util::IntField("threads", &S::threads, 1, 256, "worker threads"),
    util::IntField("games_in_flight", &S::games_in_flight, 1, 65536, "games per thread"),
    util::IntField("leaves_per_search", &S::leaves_per_search, 1, 1024,
                   "leaves in flight per search"),
    util::IntField("full_simulations", &S::full_simulations, 1, 1'000'000,
                   "simulations of a full search"),
    util::IntField("cheap_simulations", &S::cheap_simulations, 1, 1'000'000,
                   "simulations of a cheap search (at most full_simulations)"),
    util::RealField("full_search_probability", &S::full_search_probability, 0.0, 1.0,
                    "share of play-phase searches that are full"),
    util::BoolField("setup_full_search", &S::setup_full_search, "setup searches are full"),
    util::RealField("setup_temperature", &S::setup_temperature, 0.0, 100.0,
                    "temperature of setup moves"),
    util::RealField("setup_record_probability", &S::setup_record_probability, 0.0, 1.0,
                    "share of setup decisions recorded"),
    util::EnumField<&S::setup_value_of_played, kSetupValueChoices>(
        "setup_value_target", "root value of a setup sample: chosen or played action's"),
    util::IntField("games_per_file", &S::games_per_file, 1, 1'000'000, "games per sample file"),
    util::RealField("resign_threshold", &S::resign_threshold, -1.0, 1.0,
                    "root value below which a player resigns; -1 = never"),
    util::IntField("resign_consecutive", &S::resign_consecutive, 1, 10'000,
                   "turn starts in a row below the threshold"),
    util::RealField("no_resign_fraction", &S::no_resign_fraction, 0.0, 1.0,
                    "share of games that never resign"),
    util::RealField("resign_false_positive_target", &S::resign_false_positive_target, 0.0, 0.5,
                    "calibrated resignation's false-positive rate; 0 = fixed threshold"),
    util::SeedField("seed", &S::seed, "base seed of the games"),
};

}  // namespace

std::span<const util::Field<SelfplayConfig>> SelfplayConfig::Fields() { return kFields; }

util::Status SelfplayConfig::Validate() const {
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.That(cheap_simulations <= full_simulations, "cheap_simulations",
         std::to_string(cheap_simulations) + " is more than full_simulations (" +
             std::to_string(full_simulations) + ")");
  return c.Result();
}

}  // namespace veletas::selfplay
