#include "arena/player_options.h"

#include "arena/match_record.h"

namespace veletas::arena {

namespace {

// The player of `spec` without its timed factory.
util::Result<ArenaPlayer> ResolveUntimed(const PlayerSpec& spec, const NetworkSource& networks,
                                         const search::SearchConfig& search) {
  if (spec.kind != PlayerKind::kMcts) return MakeBaselinePlayer(spec);
  auto m = networks(spec.checkpoint, spec.precision);
  if (!m) return m.error_value();
  ArenaPlayer player = MakeGenerationPlayer(m.value().generation, spec.checkpoint,
                                            *m.value().evaluator, search, spec.budget);
  if (!spec.precision.empty()) {  // gen_3_int8: two precisions of one network can meet
    player.name += "_" + spec.precision;
    player.spec.precision = spec.precision;
  }
  if (spec.Timed()) {  // gen_3_100ms: a network at two times can meet
    player.spec.time_ms = spec.time_ms;
    player.name += "_" + std::to_string(spec.time_ms) + "ms";
  }
  return player;
}

}  // namespace

util::Result<ArenaPlayer> ResolvePlayer(const PlayerSpec& spec, const NetworkSource& networks,
                                        const search::SearchConfig& search,
                                        const TimedPlayerSource& timed) {
  auto player = ResolveUntimed(spec, networks, search);
  if (!player || !spec.Timed() || !timed) return player;
  auto factory = timed(player.value());
  if (!factory) return factory.error_value();
  player.value().timed = std::move(factory.value());
  return player;
}

util::Result<ArenaPlayer> PlayerOption(const std::string& option, const std::string& text,
                                       int simulations, const NetworkSource& networks,
                                       const search::SearchConfig& search) {
  using R = util::Result<ArenaPlayer>;
  const bool is_spec = text == "random" || text.starts_with("uct:") || text.starts_with("mcts:");
  auto spec = is_spec ? ParsePlayerSpec(text)
                      : util::Result<PlayerSpec>(PlayerSpec{PlayerKind::kMcts, simulations, text});
  if (!spec) return R::Error("--" + option + ": " + spec.error());
  auto player = ResolvePlayer(spec.value(), networks, search);
  if (!player) return R::Error("--" + option + ": " + player.error());
  return player;
}

util::Result<std::array<ArenaPlayer, 2>> MatchPlayers(
    const std::array<std::string, 2>& specs, const std::array<std::optional<std::string>, 2>& names,
    const search::SearchConfig& search, const NetworkSource& networks,
    const TimedPlayerSource& timed) {
  std::array<ArenaPlayer, 2> players;
  for (int i = 0; i < 2; ++i) {
    const std::string opt = i == 0 ? "--a: " : "--b: ";
    auto spec = ParsePlayerSpec(specs[i]);
    if (!spec) return util::Prefixed(spec.error_value(), opt);
    auto p = ResolvePlayer(spec.value(), networks, search, timed);
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
                              util::DirectoryLock& lock, std::ostream& report) {
  const auto removed = util::LockAndClean(run_dir, lock, MatchesDir(run_dir), true);
  if (!removed) return removed.error_value();
  for (const std::string& path : removed.value()) {
    report << "veletas " << command << ": " << path
           << ": removed (incomplete file of a killed session)\n";
  }
  return util::Ok();
}

}  // namespace veletas::arena
