// The arena's players: how generations and baselines are made, when a match can be played,
// and their seeds.
#include <string>

#include "arena/arena.h"
#include "util/names.h"
#include "util/random.h"

namespace veletas::arena {

ArenaPlayer MakeGenerationPlayer(long long generation, const std::string& checkpoint,
                                 search::Evaluator& evaluator, const search::SearchConfig& search,
                                 int simulations) {
  ArenaPlayer p;
  p.name = GenerationName(generation);
  p.spec.kind = PlayerKind::kMcts;
  p.spec.checkpoint = checkpoint;
  p.spec.budget = simulations;
  p.evaluator = &evaluator;
  p.search = search;
  return p;
}

ArenaPlayer MakeBaselinePlayer(const PlayerSpec& spec) {
  ArenaPlayer p;
  p.name = DefaultPlayerName(spec);
  p.spec = spec;
  return p;
}

util::Status ValidateArena(const ArenaPlayer& a, const ArenaPlayer& b, rules::RuleSet rules,
                           int size, const ArenaConfig& config) {
  using S = util::Status;
  if (!rules::IsSupportedSize(size)) {
    return S::Error("board size " + std::to_string(size) + " is not supported (7, 9 or 10)");
  }
  if (rules != rules::RuleSet::kStandard && rules != rules::RuleSet::kClassic) {
    return S::Error("unknown rule set");
  }
  for (const ArenaPlayer* p : {&a, &b}) {
    const std::string who = p == &a ? "player A" : "player B";
    if (p->name.empty()) return S::Error(who + " has no name");
    // Names become file names and JSON strings, specs JSON strings (match records).
    if (util::Status s = util::ValidateName(p->name, who + " name"); !s.ok()) return s;
    if (util::Status utf8 = util::CheckUtf8Path(p->spec.checkpoint, who + " checkpoint");
        !utf8.ok()) {
      return utf8;
    }
    if (p->spec.Timed()) {
      if (p->spec.time_ms > kMaxTurnMs) {
        return S::Error(who + " (" + p->name + "): the time per turn must be in [1, " +
                        std::to_string(kMaxTurnMs) + "] ms");
      }
      if (!p->timed) {
        return S::Error(who + " (" + p->name + "): a player with a time per turn (" +
                        p->spec.ToString() + ") is played by `veletas match` only");
      }
      if (config.games_in_parallel > config.threads) {
        return S::Error(
            "a match with a time per turn plays one game per thread: games in "
            "parallel (" +
            std::to_string(config.games_in_parallel) + ") must not exceed threads (" +
            std::to_string(config.threads) + ")");
      }
    }
    switch (p->spec.kind) {
      case PlayerKind::kRandom:
        break;
      case PlayerKind::kUct:
        if (!p->spec.Timed() && (p->spec.budget < 1 || p->spec.budget > kMaxUctPlayouts)) {
          return S::Error(who + " (" + p->name + "): playouts must be in [1, " +
                          std::to_string(kMaxUctPlayouts) + "]");
        }
        break;
      case PlayerKind::kMcts:
        if (p->evaluator == nullptr) return S::Error(who + " (" + p->name + "): no evaluator");
        if (!p->spec.Timed() && (p->spec.budget < 1 || p->spec.budget > kMaxMctsSimulations)) {
          return S::Error(who + " (" + p->name + "): simulations must be in [1, " +
                          std::to_string(kMaxMctsSimulations) + "]");
        }
        if (p->search.leaves_per_batch < 1) {
          return S::Error(who + " (" + p->name + "): leaves_per_batch must be >= 1");
        }
        break;
    }
  }
  if (a.name == b.name) return S::Error("both players are named \"" + a.name + "\"");
  return config.Validate();
}

uint64_t ArenaPlayerSeed(uint64_t seed, int game, int side) {
  return util::SplitMix64(util::SplitMix64(seed ^ 0x5EA7ED0A12E4A000ULL) +
                          2 * static_cast<uint64_t>(game) + static_cast<uint64_t>(side));
}

}  // namespace veletas::arena
