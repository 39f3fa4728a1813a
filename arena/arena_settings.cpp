#include "arena/arena_settings.h"

#include <string>

#include "arena/player_spec.h"
#include "util/settings_check.h"

namespace veletas::arena {

// The settings of arena/sprt.h (SprtConfig, GateConfig), here so that the settings target
// holds every check of the arena's settings.
util::Status SprtConfig::Validate() const {
  util::SettingsCheck c;
  c.Real("elo0", elo0, -2000, 2000)
      .Real("elo1", elo1, -2000, 2000)
      .That(elo0 < elo1, "elo1",
            util::FormatSetting(elo1) + " must be greater than elo0 (" + util::FormatSetting(elo0) +
                ")")
      .Real("alpha", alpha, 0.0, 0.5, util::Ends::kOpenLow)
      .Real("beta", beta, 0.0, 0.5, util::Ends::kOpenLow);
  return c.Result();
}

const char* GateMethodName(GateMethod m) { return m == GateMethod::kSprt ? "sprt" : "fixed_games"; }

util::Status GateConfig::Validate() const {
  util::SettingsCheck c;
  c.Nested("", sprt.Validate())
      .Int("max_games", max_games, 0, 10'000'000)
      .Int("games", games, 1, 10'000'000)
      .Real("threshold", threshold, 0.0, 1.0, util::Ends::kOpenLow);
  return c.Result();
}

util::Status ArenaConfig::Validate() const {
  util::SettingsCheck c;
  c.Int("simulations", simulations, 1, kMaxMctsSimulations)
      .Int("games_in_parallel", games_in_parallel, 1, 65536)
      .Int("threads", threads, 1, 256)
      .Int("opening_turns", opening_turns, 0, 20);
  return c.Result();
}

util::Status GateSettings::Validate() const {
  util::SettingsCheck c;
  c.Nested("", config.Validate())
      .Int("batch_games", batch_games, 2, 1'000'000)
      .That(batch_games % 2 == 0, "batch_games",
            std::to_string(batch_games) +
                " is odd; games are played in pairs with the seats swapped");
  return c.Result();
}

util::Status LadderConfig::Validate() const {
  util::SettingsCheck c;
  c.IntList("uct_anchors", std::vector<long long>(uct_anchors.begin(), uct_anchors.end()), 1,
            kMaxUctPlayouts)
      .Int("anchor_games", anchor_games, 0, 1'000'000)
      .Int("games_vs_anchors", games_vs_anchors, 0, 1'000'000)
      .Int("previous_generations", previous_generations, 0, 1000)
      .Int("games_vs_previous", games_vs_previous, 0, 1'000'000);
  return c.Result();
}

util::Status ArenaSettings::Validate() const {
  util::SettingsCheck c;
  c.Nested("", arena.Validate())
      .Nested("gate", gate.Validate())
      .Nested("ladder", ladder.Validate());
  return c.Result();
}

}  // namespace veletas::arena
