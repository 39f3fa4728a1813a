#include "rules/turns.h"

#include <algorithm>

namespace veletas::rules {
namespace {

// Shared state for play-phase generation: blockers, empties, and a cache of how many
// empty squares each destination sees (the shots from it, before the moving shooter's
// origin is vacated).
class PlayContext {
 public:
  explicit PlayContext(const Position& pos)
      : g_(pos.Geo()),
        classic_(pos.Rules() == RuleSet::kClassic),
        blockers_(classic_ ? pos.Occupied() : pos.Stones()),
        empty_(pos.EmptySquares()) {}

  const Geometry& geo() const { return g_; }
  Bitboard empty() const { return empty_; }
  Bitboard blockers() const { return blockers_; }

  // Destinations of the shooter on s in direction d.
  Bitboard Line(int s, int d) const { return g_.AttacksInDirection(s, d, blockers_) & empty_; }
  // Shots available after moving the shooter on s in direction d lose their blocker at s:
  // in classic rules the line back through s extends past it.
  int Extension(int s, int d) const { return classic_ ? Line(s, kOpposite[d]).Count() : 0; }
  // Empty squares seen from t with the current occupancy.
  int Seen(int t) {
    if (!seen_known_.Test(t)) {
      seen_[t] = static_cast<uint8_t>((g_.Attacks(t, blockers_) & empty_).Count());
      seen_known_.Set(t);
    }
    return seen_[t];
  }
  // Shots after moving the shooter from s to t.
  Bitboard Shots(int s, int t) const {
    const Bitboard from = Bitboard::Square(s), to = Bitboard::Square(t);
    const Bitboard blockers = classic_ ? (blockers_ ^ from ^ to) : blockers_;
    return g_.Attacks(t, blockers) & ((empty_ | from) & ~to);
  }
  // Number of shots after moving s to t, in direction d from s: the squares t sees, plus
  // the vacated origin, plus (classic) the line beyond it.
  int ShotCount(int t, int extension) { return Seen(t) + 1 + extension; }

 private:
  const Geometry& g_;
  bool classic_;
  Bitboard blockers_;
  Bitboard empty_;
  std::array<uint8_t, kMaxSquares> seen_{};
  Bitboard seen_known_;
};

uint64_t CountPlayTurns(const Position& pos) {
  PlayContext ctx(pos);
  uint64_t total = pos.ShotsWithoutMove().Count();
  for (int s : pos.UnclaimedShooters()) {
    for (int d = 0; d < kNumDirections; ++d) {
      const Bitboard line = ctx.Line(s, d);
      if (line.Empty()) continue;
      const int ext = ctx.Extension(s, d);
      for (int t : line) total += ctx.ShotCount(t, ext);
    }
  }
  return total;
}

template <class F>
void ForEachPlayTurn(const Position& pos, F&& f) {
  for (int shot : pos.ShotsWithoutMove()) f(-1, -1, shot);
  PlayContext ctx(pos);
  for (int s : pos.UnclaimedShooters()) {
    for (int t : pos.Destinations(s)) {
      for (int shot : ctx.Shots(s, t)) f(s, t, shot);
    }
  }
}

Turn RandomPlayTurn(const Position& pos, util::Rng& rng) {
  PlayContext ctx(pos);
  const Bitboard no_move = pos.ShotsWithoutMove();
  // Per (shooter, direction) weights, kept so the draw walks them a second time cheaply.
  struct Segment {
    int8_t s, d, ext;
    uint32_t weight;
  };
  std::array<Segment, kNumDirections * 8> segments;
  int num_segments = 0;
  uint64_t total = no_move.Count();
  for (int s : pos.UnclaimedShooters()) {
    for (int d = 0; d < kNumDirections; ++d) {
      const Bitboard line = ctx.Line(s, d);
      if (line.Empty()) continue;
      const int ext = ctx.Extension(s, d);
      uint32_t weight = 0;
      for (int t : line) weight += ctx.ShotCount(t, ext);
      segments[num_segments++] = {static_cast<int8_t>(s), static_cast<int8_t>(d),
                                  static_cast<int8_t>(ext), weight};
      total += weight;
    }
  }
  uint64_t r = rng.Below(total);
  if (r < static_cast<uint64_t>(no_move.Count())) {
    return MakePlayTurn(pos, -1, -1, no_move.Nth(static_cast<int>(r)));
  }
  r -= no_move.Count();
  for (int i = 0; i < num_segments; ++i) {
    const Segment& seg = segments[i];
    if (r >= seg.weight) {
      r -= seg.weight;
      continue;
    }
    for (int t : ctx.Line(seg.s, seg.d)) {
      const uint64_t w = ctx.ShotCount(t, seg.ext);
      if (r < w) {
        return MakePlayTurn(pos, seg.s, t, ctx.Shots(seg.s, t).Nth(static_cast<int>(r)));
      }
      r -= w;
    }
  }
  std::abort();  // unreachable: weights sum to total
}

// Setup turns through the sub-decision tree.
void ForEachSubDecisionPath(const Position& pos, int start_turns, Turn& path,
                            const std::function<void(const Turn&)>& f) {
  const ActionSet set = pos.LegalActions();
  auto visit = [&](Action a) {
    Position child = pos;
    child.Apply(a);
    path.Push(a);
    if (child.TurnsPlayed() != start_turns) {
      f(path);
    } else {
      ForEachSubDecisionPath(child, start_turns, path, f);
    }
    --path.length;
  };
  for (int sq : set.squares) visit(sq);
  if (set.pass) visit(pos.PassAction());
}

uint64_t CountSubDecisionPaths(const Position& pos, int start_turns) {
  const ActionSet set = pos.LegalActions();
  if (pos.Pending() == Decision::kSetupStone) return set.Count();
  uint64_t n = 0;
  auto visit = [&](Action a) {
    Position child = pos;
    child.Apply(a);
    n += child.TurnsPlayed() != start_turns ? 1 : CountSubDecisionPaths(child, start_turns);
  };
  for (int sq : set.squares) visit(sq);
  if (set.pass) visit(pos.PassAction());
  return n;
}

double Choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  double r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

// Uniform setup turn by rejection sampling: a uniformly drawn set of candidate squares is
// accepted when it is a legal placement; the stone is uniform among the empty squares.
Turn RandomSetupTurn(const Position& pos, util::Rng& rng) {
  const Geometry& g = pos.Geo();
  const SizeRules sr = RulesForSize(pos.Size());
  const int quota = pos.ToMove() == Color::kBlack ? sr.black_setup : sr.shooters - sr.black_setup;
  const bool standard = pos.Rules() == RuleSet::kStandard;
  Bitboard candidates = pos.EmptySquares();
  if (standard) {
    candidates &= g.interior;
  } else {
    for (int s : pos.AllShooters()) candidates &= ~g.king[s];
  }
  Turn turn;
  if (pos.Pending() == Decision::kPie) {
    const double setups = Choose(candidates.Count(), quota) * (pos.EmptySquares().Count() - quota);
    if (rng.Uniform() * (1.0 + setups) < 1.0) {
      turn.Push(pos.PassAction());
      return turn;
    }
  }
  std::array<int, kMaxSquares> pool;
  int n = 0;
  for (int sq : candidates) pool[n++] = sq;
  std::array<int, 8> chosen;
  for (;;) {
    for (int i = 0; i < quota; ++i) {
      const int j = i + static_cast<int>(rng.Below(n - i));
      std::swap(pool[i], pool[j]);
      chosen[i] = pool[i];
    }
    bool ok = true;
    if (!standard) {
      for (int i = 0; i < quota && ok; ++i) {
        for (int j = i + 1; j < quota; ++j) {
          if (g.king[chosen[i]].Test(chosen[j])) ok = false;
        }
      }
    }
    if (ok) break;
  }
  g.SortInSetupOrder(chosen.data(), quota);
  Bitboard placed;
  for (int i = 0; i < quota; ++i) {
    turn.Push(chosen[i]);
    placed.Set(chosen[i]);
  }
  if (standard) {
    const Bitboard stones = pos.EmptySquares() & ~placed;
    turn.Push(stones.Nth(static_cast<int>(rng.Below(stones.Count()))));
  }
  return turn;
}

}  // namespace

bool AtTurnStart(const Position& pos) {
  return (pos.Pending() == Decision::kSetupShooter && pos.PlacedThisTurn() == 0) ||
         pos.Pending() == Decision::kPie || pos.Pending() == Decision::kChooseShooter;
}

Turn MakePlayTurn(const Position& pos, int from, int to, int shot) {
  Turn t;
  if (from < 0) {
    t.Push(pos.PassAction());
  } else {
    t.Push(from);
    t.Push(to);
  }
  t.Push(shot);
  return t;
}

void ApplyTurn(Position& pos, const Turn& turn) {
  if (pos.Pending() == Decision::kChooseShooter) {
    if (turn.length == 2) {
      pos.PlayTurn(-1, -1, turn[1]);
    } else {
      pos.PlayTurn(turn[0], turn[1], turn[2]);
    }
    return;
  }
  for (int i = 0; i < turn.length; ++i) pos.Apply(turn[i]);
}

void ForEachTurn(const Position& pos, const std::function<void(const Turn&)>& f) {
  if (pos.IsTerminal()) return;
  if (pos.Pending() == Decision::kChooseShooter) {
    ForEachPlayTurn(pos, [&](int from, int to, int shot) { f(MakePlayTurn(pos, from, to, shot)); });
    return;
  }
  Turn path;
  ForEachSubDecisionPath(pos, pos.TurnsPlayed(), path, f);
}

std::vector<Turn> LegalTurns(const Position& pos) {
  std::vector<Turn> turns;
  ForEachTurn(pos, [&](const Turn& t) { turns.push_back(t); });
  return turns;
}

std::vector<Turn> TurnsBySubDecisions(const Position& pos) {
  std::vector<Turn> turns;
  if (pos.IsTerminal()) return turns;
  Turn path;
  ForEachSubDecisionPath(pos, pos.TurnsPlayed(), path, [&](const Turn& t) { turns.push_back(t); });
  return turns;
}

uint64_t CountTurns(const Position& pos) {
  if (pos.IsTerminal()) return 0;
  if (pos.Pending() == Decision::kChooseShooter) return CountPlayTurns(pos);
  return CountSubDecisionPaths(pos, pos.TurnsPlayed());
}

Turn RandomTurn(const Position& pos, util::Rng& rng) {
  if (pos.Pending() == Decision::kChooseShooter) return RandomPlayTurn(pos, rng);
  if (AtTurnStart(pos)) return RandomSetupTurn(pos, rng);
  const std::vector<Turn> turns = LegalTurns(pos);
  return turns[rng.Below(turns.size())];
}

std::vector<Position> RandomTurnStarts(RuleSet rs, int size, int count, uint64_t seed) {
  util::Rng rng(seed);
  std::vector<Position> out;
  std::vector<Position> game;
  while (static_cast<int>(out.size()) < count) {
    game.clear();
    Position p = Position::Initial(rs, size);
    while (!p.IsTerminal()) {
      game.push_back(p);
      ApplyTurn(p, RandomTurn(p, rng));
    }
    out.push_back(game[rng.Below(game.size())]);
  }
  return out;
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth == 0) return 1;
  if (pos.IsTerminal()) return 0;
  if (depth == 1) return CountTurns(pos);
  uint64_t n = 0;
  if (pos.Pending() == Decision::kChooseShooter) {
    ForEachPlayTurn(pos, [&](int from, int to, int shot) {
      Position child = pos;
      child.PlayTurn(from, to, shot);
      n += Perft(child, depth - 1);
    });
    return n;
  }
  ForEachTurn(pos, [&](const Turn& t) {
    Position child = pos;
    ApplyTurn(child, t);
    n += Perft(child, depth - 1);
  });
  return n;
}

}  // namespace veletas::rules
