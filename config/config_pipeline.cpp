#include "config/config.h"

namespace veletas::config {

void ParsePipelineSection(ConfigSection& s, pipeline::PipelineConfig& out) {
  out.generations = static_cast<int>(s.Int("generations", out.generations, 1, 100000));
  out.time_budget_minutes = s.Real("time_budget_minutes", out.time_budget_minutes, 0, 1e7);
  out.cpu_budget_minutes = s.Real("cpu_budget_minutes", out.cpu_budget_minutes, 0, 1e7);
  out.games_per_generation =
      s.Int("games_per_generation", out.games_per_generation, 1, 100'000'000);
  out.first_generation_games =
      s.Int("first_generation_games", out.first_generation_games, 0, 100'000'000);
  const std::string promotion =
      s.Choice("promotion", pipeline::PromotionName(out.promotion), {"gate", "latest", "always"});
  out.promotion = promotion == "gate"     ? pipeline::Promotion::kGate
                  : promotion == "latest" ? pipeline::Promotion::kLatest
                                          : pipeline::Promotion::kAlways;
  out.check_games = static_cast<int>(s.Int("check_games", out.check_games, 2, 10000));
  if (out.check_games % 2 != 0) {
    throw ConfigError(s.Where("check_games") + std::to_string(out.check_games) +
                      " is odd (games are played in pairs with the seats swapped)");
  }
  out.check_elo = s.Real("check_elo", out.check_elo, 1, 2000);
  out.ladder_every = static_cast<int>(s.Int("ladder_every", out.ladder_every, 0, 100000));
  out.final_ladder = s.Bool("final_ladder", out.final_ladder);
  out.init_seed = s.Int("init_seed", out.init_seed, 0, (1LL << 62));
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
