#include "app/arena_cli.h"

#include <fmt/format.h>

#include <iostream>

#include "arena/match_record.h"

namespace veletas::app {
util::Result<arena::ArenaPlayer> ResolvePlayer(const arena::PlayerSpec& spec, ArenaModels& models,
                                               const search::SearchConfig& search) {
  if (spec.kind != arena::PlayerKind::kMcts) return arena::MakeBaselinePlayer(spec);
  auto m = models.Get(spec.checkpoint);
  if (!m) return m.error_value();
  return arena::MakeGenerationPlayer(m.value()->generation, spec.checkpoint, m.value()->Evaluator(),
                                     search, spec.budget);
}

util::Result<arena::ArenaPlayer> PlayerOption(const std::string& option, const std::string& text,
                                              int simulations, ArenaModels& models,
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

std::string MatchSummary(const arena::Arena& arena) {
  const auto& games = arena.Games();
  const std::string& a = arena.A().name;
  const std::string& b = arena.B().name;
  int seat_games[2] = {0, 0}, seat_wins[2] = {0, 0};      // A first, A second
  int colour_games[2] = {0, 0}, colour_wins[2] = {0, 0};  // A black, A white
  long long turns = 0;
  for (const arena::ArenaGame& g : games) {
    const int seat = g.a_first ? 0 : 1;
    const int colour = rules::Index(g.a_colour);
    ++seat_games[seat];
    ++colour_games[colour];
    seat_wins[seat] += g.a_won;
    colour_wins[colour] += g.a_won;
    turns += g.turns;
  }
  const arena::ArenaStats& st = arena.Stats();
  const int n = static_cast<int>(games.size());
  const arena::EloEstimate e = arena.Elo();
  std::string out = fmt::format("{} games in {:.1f} s ({:.2f} games/s), {:.1f} turns per game\n", n,
                                st.seconds, st.seconds > 0 ? n / st.seconds : 0.0,
                                n > 0 ? static_cast<double>(turns) / n : 0.0);
  out += fmt::format(
      "{}: {} wins (as first player {}/{}, as second {}/{}; with black {}/{}, with white {}/{})\n",
      a, arena.AWins(), seat_wins[0], seat_games[0], seat_wins[1], seat_games[1], colour_wins[0],
      colour_games[0], colour_wins[1], colour_games[1]);
  out += fmt::format("{}: {} wins\n", b, arena.BWins());
  out += fmt::format("score of {}: {:.3f}\n", a, e.score);
  out += "Elo " + a + " - " + b + ": " + arena::FormatElo(e) +
         (e.bound == arena::EloBound::kTwoSided ? " (95%)" : "") + "\n";
  out += fmt::format("likelihood of superiority of {}: {:.1f}%\n", a, 100.0 * e.los);
  if (st.evaluate_calls > 0) {
    out += fmt::format("network: {} positions in {} batches (mean {:.1f} per batch)\n",
                       st.evaluations, st.evaluate_calls, st.MeanBatch());
  }
  return out;
}

}  // namespace veletas::app
