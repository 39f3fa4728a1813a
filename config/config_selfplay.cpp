// YAML mapping of the self-play generator's settings: section `selfplay`
// (selfplay::SelfplayConfig). The ranges are SelfplayConfig::Validate().
#include "config/config.h"

namespace veletas::config {
void ParseSelfplaySection(ConfigSection& s, selfplay::SelfplayConfig& out) {
  out.threads = s.SmallInt("threads", out.threads);
  out.games_in_flight = s.SmallInt("games_in_flight", out.games_in_flight);
  out.leaves_per_search = s.SmallInt("leaves_per_search", out.leaves_per_search);
  out.full_simulations = s.SmallInt("full_simulations", out.full_simulations);
  out.cheap_simulations = s.SmallInt("cheap_simulations", out.cheap_simulations);
  out.full_search_probability = s.Float("full_search_probability", out.full_search_probability);
  out.setup_full_search = s.Bool("setup_full_search", out.setup_full_search);
  out.setup_temperature = s.Float("setup_temperature", out.setup_temperature);
  out.setup_record_probability = s.Float("setup_record_probability", out.setup_record_probability);
  out.setup_value_of_played =
      s.Choice("setup_value_target", out.setup_value_of_played ? "played" : "chosen",
               {"chosen", "played"}) == "played";
  out.games_per_file = s.SmallInt("games_per_file", out.games_per_file);
  out.resign_threshold = s.Float("resign_threshold", out.resign_threshold);
  out.resign_consecutive = s.SmallInt("resign_consecutive", out.resign_consecutive);
  out.no_resign_fraction = s.Float("no_resign_fraction", out.no_resign_fraction);
  out.resign_false_positive_target =
      s.Float("resign_false_positive_target", out.resign_false_positive_target);
  out.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(out.seed), 0, (1LL << 62)));
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
