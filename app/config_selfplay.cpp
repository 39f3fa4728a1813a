// YAML mapping of the self-play generator's settings: section `selfplay`
// (selfplay::SelfplayConfig).
#include <cstdio>
#include <cstdlib>

#include "app/config.h"

namespace veletas::app {
namespace {

// A float setting; the default is passed on in its shortest decimal form (0.1, not
// 0.10000000149011612) so that the resolved config reads well.
float Real(ConfigSection& s, const std::string& key, float fallback, double lo, double hi) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", static_cast<double>(fallback));
  return static_cast<float>(s.Real(key, std::strtod(text, nullptr), lo, hi));
}

int Int(ConfigSection& s, const std::string& key, int fallback, long long lo, long long hi) {
  return static_cast<int>(s.Int(key, fallback, lo, hi));
}

}  // namespace

void ParseSelfplaySection(ConfigSection& s, selfplay::SelfplayConfig& out) {
  out.threads = Int(s, "threads", out.threads, 1, 256);
  out.games_in_flight = Int(s, "games_in_flight", out.games_in_flight, 1, 65536);
  out.leaves_per_search = Int(s, "leaves_per_search", out.leaves_per_search, 1, 1024);
  out.full_simulations = Int(s, "full_simulations", out.full_simulations, 1, 1'000'000);
  out.cheap_simulations = Int(s, "cheap_simulations", out.cheap_simulations, 1, 1'000'000);
  if (out.cheap_simulations > out.full_simulations) {
    throw ConfigError(s.Where("cheap_simulations") + std::to_string(out.cheap_simulations) +
                      " is more than full_simulations (" + std::to_string(out.full_simulations) +
                      ")");
  }
  out.full_search_probability =
      Real(s, "full_search_probability", out.full_search_probability, 0.0, 1.0);
  out.setup_full_search = s.Bool("setup_full_search", out.setup_full_search);
  out.setup_temperature = Real(s, "setup_temperature", out.setup_temperature, 0.0, 100.0);
  out.pie_swap_prior = Real(s, "pie_swap_prior", out.pie_swap_prior, 0.0, 0.99);
  out.games_per_file = Int(s, "games_per_file", out.games_per_file, 1, 1'000'000);
  out.resign_threshold = Real(s, "resign_threshold", out.resign_threshold, -1.0, 1.0);
  out.resign_consecutive = Int(s, "resign_consecutive", out.resign_consecutive, 1, 10'000);
  out.no_resign_fraction = Real(s, "no_resign_fraction", out.no_resign_fraction, 0.0, 1.0);
  out.seed = static_cast<uint64_t>(s.Int("seed", static_cast<long long>(out.seed), 0, (1LL << 62)));
  s.RejectUnknownKeys();
}

}  // namespace veletas::app
