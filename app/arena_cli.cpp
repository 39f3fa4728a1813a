#include "app/arena_cli.h"

#include <iostream>

#include "arena/match_record.h"

namespace veletas::app {
util::Result<arena::ArenaPlayer> ResolvePlayer(const arena::PlayerSpec& spec,
                                               model::NetworkPool& models,
                                               const search::SearchConfig& search) {
  if (spec.kind != arena::PlayerKind::kMcts) return arena::MakeBaselinePlayer(spec);
  auto m = models.Get(spec.checkpoint, spec.precision);
  if (!m) return m.error_value();
  arena::ArenaPlayer player = arena::MakeGenerationPlayer(
      m.value()->generation, spec.checkpoint, m.value()->Evaluator(), search, spec.budget);
  if (!spec.precision.empty()) {  // gen_3_int8: two precisions of one network can meet
    player.name += "_" + spec.precision;
    player.spec.precision = spec.precision;
  }
  return player;
}

util::Result<arena::ArenaPlayer> PlayerOption(const std::string& option, const std::string& text,
                                              int simulations, model::NetworkPool& models,
                                              const search::SearchConfig& search) {
  using R = util::Result<arena::ArenaPlayer>;
  const bool is_spec = text == "random" || text.starts_with("uct:") || text.starts_with("mcts:");
  auto spec = is_spec ? arena::ParsePlayerSpec(text)
                      : util::Result<arena::PlayerSpec>(
                            arena::PlayerSpec{arena::PlayerKind::kMcts, simulations, text});
  if (!spec) return R::Error("--" + option + ": " + spec.error());
  auto player = ResolvePlayer(spec.value(), models, search);
  if (!player) return R::Error("--" + option + ": " + player.error());
  return player;
}

util::Result<std::array<arena::ArenaPlayer, 2>> MatchPlayers(
    const std::array<std::string, 2>& specs, const std::array<std::optional<std::string>, 2>& names,
    const search::SearchConfig& search, model::NetworkPool& models) {
  std::array<arena::ArenaPlayer, 2> players;
  for (int i = 0; i < 2; ++i) {
    const std::string opt = i == 0 ? "--a: " : "--b: ";
    auto spec = arena::ParsePlayerSpec(specs[i]);
    if (!spec) return util::Prefixed(spec.error_value(), opt);
    auto p = ResolvePlayer(spec.value(), models, search);
    if (!p) return util::Prefixed(p.error_value(), opt);
    players[i] = p.value();
    if (names[i]) players[i].name = *names[i];
  }
  if (players[0].name == players[1].name) {
    if (names[0] && names[1]) {
      return util::Error{"--a-name and --b-name are both \"" + players[0].name + "\""};
    }
    if (!names[0]) players[0].name += "_a";
    if (!names[1]) players[1].name += "_b";
  }
  return players;
}

util::Status LockRunDirectory(const std::string& command, const std::string& run_dir,
                              util::DirectoryLock& lock) {
  const auto removed = util::LockAndClean(run_dir, lock, arena::MatchesDir(run_dir), true);
  if (!removed) return removed.error_value();
  for (const std::string& path : removed.value()) {
    std::cerr << "veletas " << command << ": " << path
              << ": removed (incomplete file of a killed session)\n";
  }
  return util::Ok();
}

}  // namespace veletas::app
