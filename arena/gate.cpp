#include "arena/gate.h"

#include <algorithm>
#include <limits>

#include "arena/arena_journal.h"
#include "arena/arena_record.h"

namespace veletas::arena {

util::Result<GateResult> RunGate(const ArenaPlayer& candidate, const ArenaPlayer& best,
                                 rules::RuleSet rules, int size, const GateSettings& settings,
                                 const ArenaConfig& arena_config, const std::string& run_dir,
                                 const std::string& match_name, const ArenaProgressFn& progress,
                                 RemoteGames* remote) {
  using R = util::Result<GateResult>;
  if (util::Status e = ValidateArena(candidate, best, rules, size, arena_config); !e.ok()) {
    return util::Prefixed(e.error_value(), "gate: ");
  }
  if (util::Status valid = settings.Validate(); !valid) return R::Error("gate: " + valid.error());
  const std::string name =
      match_name.empty() ? MakeMatchName("gate_", candidate.name, best.name) : match_name;
  if (util::Status e = ValidateMatchName(name); !e.ok()) {
    return util::Prefixed(e.error_value(), "gate: ");
  }
  GateResult out;
  out.match_file = MatchFilePath(run_dir, name);

  auto existing = ReadFinishedMatch(run_dir, name, out.notes);
  if (!existing) return existing.error_value();
  if (existing.value()) {
    if (!existing.value()->gate) {
      return R::Error(out.match_file + ": exists but holds no gate decision");
    }
    out.record = *existing.value();
    out.evidence = *out.record.gate;
    out.promoted = out.evidence.decision == GateDecision::kPromote;
    out.resumed = true;
    return out;
  }

  const GateConfig& gc = settings.config;
  const int planned = gc.method == GateMethod::kFixedGames ? gc.games
                      : gc.max_games > 0                   ? gc.max_games
                                                           : std::numeric_limits<int>::max();
  JournaledMatch match(run_dir, name, candidate, best, rules, size, arena_config, remote);
  const Arena& arena = match.arena();
  const ArenaProgressFn report = [&](const ArenaProgress& p) {
    if (!progress) return;
    ArenaProgress q = p;
    q.games_total = planned == std::numeric_limits<int>::max() ? p.games_total : planned;
    progress(q);
  };
  if (util::Status s = match.Open(out.notes); !s.ok()) return s.error_value();
  // The decisions are taken at the same batch ends as in an uninterrupted run.
  do {
    const int batch = std::min(settings.batch_games, planned - arena.GamesPlayed());
    if (util::Status s = match.Play(batch, report); !s.ok()) return s.error_value();
    out.evidence = EvaluateGate(gc, arena.AWins(), arena.BWins());
  } while (out.evidence.decision == GateDecision::kContinue && arena.GamesPlayed() < planned);
  out.promoted = out.evidence.decision == GateDecision::kPromote;
  out.stats = arena.Stats();
  auto record = match.Save(out.evidence);
  if (!record) return record.error_value();
  out.record = record.value();
  return out;
}

}  // namespace veletas::arena
