#include "arena/match_text.h"

#include <fmt/format.h>

#include <filesystem>

#include "arena/arena_record.h"
#include "arena/sprt.h"
#include "rules/notation.h"

namespace veletas::arena {

std::string ProgressText(const ArenaProgress& p, const std::string& a, const std::string& b) {
  const double rate = p.seconds > 0 ? p.games_done / p.seconds : 0.0;
  return fmt::format("{}/{} games, {}{}{} - {}{}{}, {:.2f} games/s", p.games_done, p.games_total, a,
                     a.empty() ? "" : " ", p.a_wins, p.b_wins, b.empty() ? "" : " ", b, rate);
}

std::string MatchHeadline(const ArenaPlayer& a, const ArenaPlayer& b, rules::RuleSet rules,
                          int size, long long games, const ArenaConfig& config) {
  std::string out =
      fmt::format("{} ({}) vs {} ({}), {} {}x{}, {} games, {} in parallel, {} threads, seed {}\n",
                  a.name, a.spec.ToString(), b.name, b.spec.ToString(), rules::RuleSetName(rules),
                  size, size, games, config.games_in_parallel, config.threads, config.seed);
  if (a.spec.Timed() || b.spec.Timed()) {
    out +=
        "time per turn: each player searches on one thread, one game per thread; the "
        "result depends on this machine and its load\n";
  }
  return out;
}

std::string GateHeadline(const ArenaPlayer& candidate, const ArenaPlayer& best,
                         rules::RuleSet rules, int size, const GateSettings& gate) {
  return fmt::format("gate: {} ({}) against {} ({}), {} {}x{}, {}, batches of {} games\n",
                     candidate.name, candidate.spec.ToString(), best.name, best.spec.ToString(),
                     rules::RuleSetName(rules), size, size, GateMethodName(gate.config.method),
                     gate.batch_games);
}

std::string MatchSummary(const Arena& arena) {
  const auto& games = arena.Games();
  const std::string& a = arena.A().name;
  const std::string& b = arena.B().name;
  int seat_games[2] = {0, 0}, seat_wins[2] = {0, 0};      // A first, A second
  int colour_games[2] = {0, 0}, colour_wins[2] = {0, 0};  // A black, A white
  long long turns = 0;
  for (const ArenaGame& g : games) {
    const int seat = g.a_first ? 0 : 1;
    const int colour = rules::Index(g.a_colour);
    ++seat_games[seat];
    ++colour_games[colour];
    seat_wins[seat] += g.a_won;
    colour_wins[colour] += g.a_won;
    turns += g.turns;
  }
  const ArenaStats& st = arena.Stats();
  const int n = static_cast<int>(games.size());
  const EloEstimate e = arena.Elo();
  std::string out = fmt::format("{} games in {:.1f} s ({:.2f} games/s), {:.1f} turns per game\n", n,
                                st.seconds, st.seconds > 0 ? n / st.seconds : 0.0,
                                n > 0 ? static_cast<double>(turns) / n : 0.0);
  out += fmt::format(
      "{}: {} wins (as first player {}/{}, as second {}/{}; with black {}/{}, with white {}/{})\n",
      a, arena.AWins(), seat_wins[0], seat_games[0], seat_wins[1], seat_games[1], colour_wins[0],
      colour_games[0], colour_wins[1], colour_games[1]);
  out += fmt::format("{}: {} wins\n", b, arena.BWins());
  out += fmt::format("score of {}: {:.3f}\n", a, e.score);
  out += "Elo " + a + " - " + b + ": " + FormatElo(e) +
         (e.bound == EloBound::kTwoSided ? " (95%)" : "") + "\n";
  out += fmt::format("likelihood of superiority of {}: {:.1f}%\n", a, 100.0 * e.los);
  if (st.evaluate_calls > 0) {
    out += fmt::format("network: {} positions in {} batches (mean {:.1f} per batch)\n",
                       st.evaluations, st.evaluate_calls, st.MeanBatch());
  }
  for (int side = 0; side < 2; ++side) {
    if (st.timed_turns[side] == 0) continue;
    const ArenaPlayer& p = side == 0 ? arena.A() : arena.B();
    out +=
        fmt::format("{} ({}): {:.0f} simulations per turn (mean of {} turns played now)\n", p.name,
                    p.spec.ToString(), st.MeanTimedSimulations(side), st.timed_turns[side]);
  }
  return out;
}

nlohmann::json MatchResultJson(const MatchRecord& record, const Arena& arena,
                               const std::string& match_file, const std::string& records_file) {
  nlohmann::json j = MatchRecordToJson(record);
  j["match_file"] = match_file;
  j["records_file"] = records_file;
  j["seconds"] = arena.Stats().seconds;
  j["turns"] = arena.Stats().turns;
  j["evaluations"] = arena.Stats().evaluations;
  j["evaluate_calls"] = arena.Stats().evaluate_calls;
  // Timed players: the mean simulations (UCT: playouts) per turn of the turns played now.
  for (int side = 0; side < 2; ++side) {
    if (arena.Stats().timed_turns[side] == 0) continue;
    j[side == 0 ? "a_timed" : "b_timed"] = {
        {"turns", arena.Stats().timed_turns[side]},
        {"simulations_per_turn", arena.Stats().MeanTimedSimulations(side)}};
  }
  // Elo A - B with its 95% interval (arena/elo.h; one end only when a player won every game).
  j["elo"] = EloJson(arena.Elo());
  return j;
}

nlohmann::json EloJson(const EloEstimate& e) {
  return {{"a_minus_b", e.elo},
          {"low", e.ci_low},
          {"high", e.ci_high},
          {"bound", EloBoundName(e.bound)},
          {"los", e.los}};
}

std::string GateResultText(const GateResult& r, const ArenaPlayer& candidate,
                           const ArenaPlayer& best) {
  std::string out = r.resumed ? "(decided earlier: " + r.match_file + ")\n" : "";
  return out + r.evidence.reason + "\n" + "Elo " + candidate.name + " - " + best.name + ": " +
         FormatElo(r.evidence.elo) + "\n" + "decision: " + GateDecisionName(r.evidence.decision) +
         "\n" + "wrote " + r.match_file + "\n";
}

nlohmann::json GateResultJson(const GateResult& r, const ArenaPlayer& candidate,
                              const ArenaPlayer& best) {
  nlohmann::json j;
  j["candidate"] = {{"name", candidate.name}, {"spec", candidate.spec.ToString()}};
  j["best"] = {{"name", best.name}, {"spec", best.spec.ToString()}};
  j["promoted"] = r.promoted;
  j["resumed"] = r.resumed;
  j["decision"] = GateDecisionName(r.evidence.decision);
  j["evidence"] = GateEvidenceToJson(r.evidence);
  j["match_file"] = r.match_file;
  return j;
}

util::Result<std::string> NewMatchName(const std::string& out_dir,
                                       const std::optional<std::string>& wanted,
                                       const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (wanted) {
    if (util::Status e = ValidateMatchName(*wanted); !e.ok()) {
      return util::Prefixed(e.error_value(), "--name: ");
    }
    if (fs::exists(MatchFilePath(out_dir, *wanted), ec)) {
      return util::Error{MatchFilePath(out_dir, *wanted) +
                         " exists; choose another --name or --out"};
    }
    return *wanted;
  }
  const std::string base = MakeMatchName("", a, b);
  std::string name = base;
  for (int k = 2; fs::exists(MatchFilePath(out_dir, name), ec); ++k) {
    name = base + "-" + std::to_string(k);
  }
  // Checked now, before any game is played.
  if (util::Status e = ValidateMatchName(name); !e.ok()) {
    return util::Error{e.error() + "; choose a shorter one with --name"};
  }
  return name;
}

}  // namespace veletas::arena
