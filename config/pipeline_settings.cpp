#include "config/pipeline_settings.h"

#include <string>

#include "util/settings_check.h"

namespace veletas::config {
namespace {

using S = PipelineConfig;
const util::Field<S> kFields[] = {
    util::IntField("generations", &S::generations, 1, 100000, "generations to train at most"),
    util::RealField("time_budget_minutes", &S::time_budget_minutes, 0, 1e7,
                    "run time after which no generation starts; 0 = none"),
    util::RealField("cpu_budget_minutes", &S::cpu_budget_minutes, 0, 1e7,
                    "the same for CPU time; 0 = none"),
    util::IntField("games_per_generation", &S::games_per_generation, 1, 100'000'000,
                   "self-play games per generation"),
    util::IntField("first_generation_games", &S::first_generation_games, 0, 100'000'000,
                   "games of the first generation; 0 = games_per_generation"),
    util::EnumField<&S::promotion, kPromotionChoices>("promotion",
                                                      "how a generation becomes the best"),
    util::IntField("check_games", &S::check_games, 2, 10000, "latest: games of the check (even)"),
    util::RealField("check_elo", &S::check_elo, 1, 2000, "latest: Elo deficit that rejects"),
    util::IntField("ladder_every", &S::ladder_every, 0, 100000,
                   "generations between ladder rounds; 0 = at the end only"),
    util::BoolField("final_ladder", &S::final_ladder, "rate the best network at the end"),
    util::IntField("init_seed", &S::init_seed, 0, util::kMaxConfigSeed,
                   "seed of the initial network's weights"),
};

}  // namespace

std::span<const util::Field<PipelineConfig>> PipelineConfig::Fields() { return kFields; }

util::Status PipelineConfig::Validate() const {
  util::SettingsCheck c;
  util::CheckFields(Fields(), *this, c);
  c.That(
      check_games % 2 == 0, "check_games",
      std::to_string(check_games) + " is odd (games are played in pairs with the seats swapped)");
  return c.Result();
}

}  // namespace veletas::config
