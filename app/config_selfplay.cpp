// YAML mapping of the self-play generator's settings: section `selfplay`
// (selfplay::SelfplayConfig).
#include <cstdio>
#include <cstdlib>

#include "app/config.h"

namespace veletas::app {
void ParseSelfplaySection(ConfigSection& s, selfplay::SelfplayConfig& out) {
  out.threads = s.SmallInt("threads", out.threads, 1, 256);
  out.games_in_flight = s.SmallInt("games_in_flight", out.games_in_flight, 1, 65536);
  out.leaves_per_search = s.SmallInt("leaves_per_search", out.leaves_per_search, 1, 1024);
  out.full_simulations = s.SmallInt("full_simulations", out.full_simulations, 1, 1'000'000);
  out.cheap_simulations = s.SmallInt("cheap_simulations", out.cheap_simulations, 1, 1'000'000);
  if (out.cheap_simulations > out.full_simulations) {
    throw ConfigError(s.Where("cheap_simulations") + std::to_string(out.cheap_simulations) +
                      " is more than full_simulations (" + std::to_string(out.full_simulations) +
                      ")");
  }
  out.full_search_probability =
      s.Float("full_search_probability", out.full_search_probability, 0.0, 1.0);
  out.setup_full_search = s.Bool("setup_full_search", out.setup_full_search);
  out.setup_temperature = s.Float("setup_temperature", out.setup_temperature, 0.0, 100.0);
  out.setup_record_probability =
      s.Float("setup_record_probability", out.setup_record_probability, 0.0, 1.0);
  out.games_per_file = s.SmallInt("games_per_file", out.games_per_file, 1, 1'000'000);
  out.resign_threshold = s.Float("resign_threshold", out.resign_threshold, -1.0, 1.0);
  out.resign_consecutive = s.SmallInt("resign_consecutive", out.resign_consecutive, 1, 10'000);
  out.no_resign_fraction = s.Float("no_resign_fraction", out.no_resign_fraction, 0.0, 1.0);
  out.resign_false_positive_target =
      s.Float("resign_false_positive_target", out.resign_false_positive_target, 0.0, 0.5);
  out.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(out.seed), 0, (1LL << 62)));
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
