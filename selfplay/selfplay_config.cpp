#include "selfplay/selfplay_config.h"

#include <string>

#include "util/settings_check.h"

namespace veletas::selfplay {

util::Status SelfplayConfig::Validate() const {
  util::SettingsCheck c;
  c.Int("threads", threads, 1, 256)
      .Int("games_in_flight", games_in_flight, 1, 65536)
      .Int("leaves_per_search", leaves_per_search, 1, 1024)
      .Int("full_simulations", full_simulations, 1, 1'000'000)
      .Int("cheap_simulations", cheap_simulations, 1, 1'000'000)
      .That(cheap_simulations <= full_simulations, "cheap_simulations",
            std::to_string(cheap_simulations) + " is more than full_simulations (" +
                std::to_string(full_simulations) + ")")
      .Real("full_search_probability", full_search_probability, 0.0, 1.0)
      .Real("setup_temperature", setup_temperature, 0.0, 100.0)
      .Real("setup_record_probability", setup_record_probability, 0.0, 1.0)
      .Int("games_per_file", games_per_file, 1, 1'000'000)
      .Real("resign_threshold", resign_threshold, -1.0, 1.0)
      .Int("resign_consecutive", resign_consecutive, 1, 10'000)
      .Real("no_resign_fraction", no_resign_fraction, 0.0, 1.0)
      .Real("resign_false_positive_target", resign_false_positive_target, 0.0, 0.5);
  return c.Result();
}

}  // namespace veletas::selfplay
