#include "rules/position.h"

#include <cstdio>
#include <cstdlib>

namespace veletas::rules {
namespace {

constexpr int kBlackStone = 0;
constexpr int kShooter = 2;
constexpr int StoneKind(Color c) { return kBlackStone + Index(c); }
constexpr int ClaimedKind(Color c) { return 3 + Index(c); }

// Shooters the player to move places in the current setup turn.
int SetupQuota(int size, Color to_move) {
  const SizeRules r = RulesForSize(size);
  return to_move == Color::kBlack ? r.black_setup : r.shooters - r.black_setup;
}

}  // namespace

Position Position::Initial(RuleSet rules, int size) {
  Position p;
  p.size_ = static_cast<uint8_t>(size);
  p.rules_ = rules;
  p.hash_ = p.ComputeHash();
  return p;
}

uint64_t Position::ComputeHash() const {
  const ZobristKeys& z = Zobrist();
  uint64_t h = z.rules[static_cast<int>(rules_)] ^ z.size[size_];
  for (int c = 0; c < 2; ++c) {
    for (int sq : stones_[c]) h ^= z.piece[kBlackStone + c][sq];
    for (int sq : claimed_[c]) h ^= z.piece[3 + c][sq];
  }
  for (int sq : shooters_) h ^= z.piece[kShooter][sq];
  h ^= z.decision[static_cast<int>(pending_)];
  if (to_move_ == Color::kWhite) h ^= z.white_to_move;
  if (black_player_ == 1) h ^= z.swapped;
  if (origin_ >= 0) h ^= z.origin[origin_];
  if (moved_from_ >= 0) h ^= z.origin[moved_from_];
  if (moved_to_ >= 0) h ^= z.moved_to[moved_to_];
  if (last_placed_ >= 0) h ^= z.last_placed[last_placed_];
  h ^= z.placed_this_turn[placed_this_turn_];
  return h;
}

void Position::Toggle(int kind, int sq) {
  hash_ ^= Zobrist().piece[kind][sq];
  switch (kind) {
    case 0:
      stones_[0].Toggle(sq);
      break;
    case 1:
      stones_[1].Toggle(sq);
      break;
    case 2:
      shooters_.Toggle(sq);
      break;
    case 3:
      claimed_[0].Toggle(sq);
      break;
    default:
      claimed_[1].Toggle(sq);
      break;
  }
}

void Position::SetDecision(Decision d) {
  const ZobristKeys& z = Zobrist();
  hash_ ^= z.decision[static_cast<int>(pending_)] ^ z.decision[static_cast<int>(d)];
  pending_ = d;
}

void Position::SetToMove(Color c) {
  if (c != to_move_) hash_ ^= Zobrist().white_to_move;
  to_move_ = c;
}

void Position::SetOrigin(int sq) {
  const ZobristKeys& z = Zobrist();
  if (origin_ >= 0) hash_ ^= z.origin[origin_];
  origin_ = static_cast<int8_t>(sq);
  if (origin_ >= 0) hash_ ^= z.origin[origin_];
}

void Position::SetMoved(int from, int to) {
  const ZobristKeys& z = Zobrist();
  if (moved_from_ >= 0) hash_ ^= z.origin[moved_from_];
  if (moved_to_ >= 0) hash_ ^= z.moved_to[moved_to_];
  moved_from_ = static_cast<int8_t>(from);
  moved_to_ = static_cast<int8_t>(to);
  if (moved_from_ >= 0) hash_ ^= z.origin[moved_from_];
  if (moved_to_ >= 0) hash_ ^= z.moved_to[moved_to_];
}

void Position::SetLastPlaced(int sq, int count) {
  const ZobristKeys& z = Zobrist();
  if (last_placed_ >= 0) hash_ ^= z.last_placed[last_placed_];
  hash_ ^= z.placed_this_turn[placed_this_turn_] ^ z.placed_this_turn[count];
  last_placed_ = static_cast<int8_t>(sq);
  placed_this_turn_ = static_cast<uint8_t>(count);
  if (last_placed_ >= 0) hash_ ^= z.last_placed[last_placed_];
}

Bitboard Position::Destinations(int sq) const {
  const Geometry& g = Geo();
  const Bitboard blockers = rules_ == RuleSet::kStandard ? Stones() : Occupied();
  return g.Attacks(sq, blockers) & g.board & ~Occupied();
}

Bitboard Position::ShotsFrom(int sq) const { return Destinations(sq); }

Bitboard Position::ShotsWithoutMove() const {
  const Geometry& g = Geo();
  const Bitboard blockers = rules_ == RuleSet::kStandard ? Stones() : Occupied();
  Bitboard reach;
  for (int s : shooters_) reach |= g.Attacks(s, blockers);
  return reach & g.board & ~Occupied();
}

bool Position::IsTrapped(int sq) const {
  const Geometry& g = Geo();
  const Bitboard empty = g.board & ~Occupied();
  if ((g.king[sq] & empty).Any()) return false;
  if (rules_ == RuleSet::kClassic) return true;
  return (g.Attacks(sq, Stones()) & empty).Empty();
}

int Position::GroupSize(Color c, int sq) const {
  const Bitboard own = stones_[Index(c)];
  if (!own.Test(sq)) return 0;
  const Geometry& g = Geo();
  Bitboard group = Bitboard::Square(sq);
  for (;;) {
    const Bitboard grown = (group | g.OrthoSpread(group)) & own;
    if (grown == group) break;
    group = grown;
  }
  return group.Count();
}

bool Position::SetupCompletable(int after_sq, int remaining, Bitboard placed) const {
  if (remaining == 0) return true;
  const Geometry& g = Geo();
  Bitboard candidates = g.later[after_sq] & g.board & ~Occupied() & ~placed;
  if (rules_ == RuleSet::kStandard) {
    return (candidates & g.interior).Count() >= remaining;
  }
  for (int s : placed) candidates &= ~g.king[s];
  if (candidates.Count() < remaining) return false;
  for (int c : candidates) {
    if (SetupCompletable(c, remaining - 1, placed | Bitboard::Square(c))) return true;
  }
  return false;
}

Bitboard Position::SetupShooterSquares() const {
  const Geometry& g = Geo();
  Bitboard candidates = g.board & ~Occupied();
  if (last_placed_ >= 0) candidates &= g.later[last_placed_];
  const bool pie = pending_ == Decision::kPie;
  const int placed = pie ? 0 : placed_this_turn_;
  const int remaining_after = SetupQuota(size_, to_move_) - placed - 1;
  if (rules_ == RuleSet::kStandard) {
    candidates &= g.interior;
  } else {
    for (int s : AllShooters()) candidates &= ~g.king[s];
  }
  Bitboard result;
  const Bitboard shooters = AllShooters();
  for (int sq : candidates) {
    if (SetupCompletable(sq, remaining_after, shooters | Bitboard::Square(sq))) result.Set(sq);
  }
  return result;
}

ActionSet Position::LegalActions() const {
  ActionSet set;
  switch (pending_) {
    case Decision::kSetupShooter:
      set.squares = SetupShooterSquares();
      break;
    case Decision::kSetupStone:
      set.squares = EmptySquares();
      break;
    case Decision::kPie:
      set.squares = SetupShooterSquares();
      set.pass = true;
      break;
    case Decision::kChooseShooter: {
      for (int s : shooters_) {
        if (!IsTrapped(s)) set.squares.Set(s);
      }
      set.pass = true;
      break;
    }
    case Decision::kDestination:
      set.squares = Destinations(origin_);
      break;
    case Decision::kShot:
      set.squares = moved_to_ >= 0 ? ShotsFrom(moved_to_) : ShotsWithoutMove();
      break;
    case Decision::kGameOver:
      break;
  }
  return set;
}

void Position::PlaceSetupShooter(int sq) {
  Toggle(kShooter, sq);
  const int placed = (pending_ == Decision::kPie ? 0 : placed_this_turn_) + 1;
  SetLastPlaced(sq, placed);
  if (placed < SetupQuota(size_, to_move_)) {
    SetDecision(Decision::kSetupShooter);
  } else if (rules_ == RuleSet::kStandard) {
    SetDecision(Decision::kSetupStone);
  } else {
    FinishSetupTurn();
  }
}

void Position::FinishSetupTurn() {
  SetLastPlaced(-1, 0);
  ++turns_played_;
  if (to_move_ == Color::kBlack) {
    SetToMove(Color::kWhite);
    SetDecision(rules_ == RuleSet::kStandard ? Decision::kPie : Decision::kSetupShooter);
  } else {
    SetToMove(Color::kBlack);
    SetDecision(Decision::kChooseShooter);
  }
}

void Position::ShootAndResolve(int sq) {
  const Color shooter = to_move_;
  Toggle(StoneKind(shooter), sq);
  // All claims are decided on the position after the shot; claims cannot cascade.
  Bitboard trapped;
  for (int s : shooters_) {
    if (IsTrapped(s)) trapped.Set(s);
  }
  const Geometry& g = Geo();
  for (int s : trapped) {
    int best[2] = {0, 0};
    for (int c = 0; c < 2; ++c) {
      for (int n : g.ortho[s] & stones_[c]) {
        const int size = GroupSize(static_cast<Color>(c), n);
        if (size > best[c]) best[c] = size;
      }
    }
    const Color claimer = best[0] > best[1]   ? Color::kBlack
                          : best[1] > best[0] ? Color::kWhite
                                              : Opponent(shooter);
    Toggle(kShooter, s);
    Toggle(ClaimedKind(claimer), s);
  }
  ++turns_played_;
  SetMoved(-1, -1);
  SetToMove(Opponent(shooter));
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (ClaimCount(c) >= ClaimsToWin()) winner_ = static_cast<int8_t>(c);
  }
  SetDecision(winner_ >= 0 ? Decision::kGameOver : Decision::kChooseShooter);
}

void Position::Apply(Action a) {
#ifdef VELETAS_CHECK_INVARIANTS
  if (!IsLegal(a)) {
    std::fprintf(stderr, "veletas: illegal action %d at decision %d\n", a,
                 static_cast<int>(pending_));
    std::abort();
  }
#endif
  switch (pending_) {
    case Decision::kSetupShooter:
      PlaceSetupShooter(a);
      break;
    case Decision::kPie:
      if (a == PassAction()) {
        black_player_ = 1;
        hash_ ^= Zobrist().swapped;
        ++turns_played_;
        SetDecision(Decision::kSetupShooter);
      } else {
        PlaceSetupShooter(a);
      }
      break;
    case Decision::kSetupStone:
      Toggle(StoneKind(to_move_), a);
      FinishSetupTurn();
      break;
    case Decision::kChooseShooter:
      if (a == PassAction()) {
        SetDecision(Decision::kShot);
      } else {
        SetOrigin(a);
        SetDecision(Decision::kDestination);
      }
      break;
    case Decision::kDestination: {
      const int from = origin_;
      SetOrigin(-1);
      Toggle(kShooter, from);
      Toggle(kShooter, a);
      SetMoved(from, a);
      SetDecision(Decision::kShot);
      break;
    }
    case Decision::kShot:
      ShootAndResolve(a);
      break;
    case Decision::kGameOver:
      break;
  }
  DebugCheck();
}

void Position::PlayTurn(int from, int to, int shot) {
  if (from >= 0) {
    Toggle(kShooter, from);
    Toggle(kShooter, to);
  }
  ShootAndResolve(shot);
  DebugCheck();
}

std::optional<Position> Position::FromContents(RuleSet rules, int size, Bitboard black_stones,
                                               Bitboard white_stones, Bitboard shooters,
                                               Bitboard claimed_black, Bitboard claimed_white,
                                               Color to_move) {
  if (!IsSupportedSize(size)) return std::nullopt;
  const Bitboard parts[5] = {black_stones, white_stones, shooters, claimed_black, claimed_white};
  Bitboard seen;
  for (const Bitboard& b : parts) {
    if ((seen & b).Any()) return std::nullopt;
    seen |= b;
  }
  if ((seen & ~GeometryFor(size).board).Any()) return std::nullopt;
  Position p = Initial(rules, size);
  p.stones_[0] = black_stones;
  p.stones_[1] = white_stones;
  p.shooters_ = shooters;
  p.claimed_[0] = claimed_black;
  p.claimed_[1] = claimed_white;
  p.to_move_ = to_move;
  p.pending_ = Decision::kChooseShooter;
  p.turns_played_ = 2;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (p.ClaimCount(c) >= p.ClaimsToWin()) {
      p.winner_ = static_cast<int8_t>(c);
      p.pending_ = Decision::kGameOver;
    }
  }
  p.hash_ = p.ComputeHash();
  return p;
}

PositionState Position::State() const {
  PositionState s;
  s.rules = rules_;
  s.size = size_;
  for (int c = 0; c < 2; ++c) {
    s.stones[c] = stones_[c];
    s.claimed[c] = claimed_[c];
  }
  s.shooters = shooters_;
  s.to_move = to_move_;
  s.pending = pending_;
  s.black_player = black_player_;
  s.placed_this_turn = placed_this_turn_;
  s.last_placed = last_placed_;
  s.origin = origin_;
  s.moved_from = moved_from_;
  s.moved_to = moved_to_;
  s.turns_played = turns_played_;
  return s;
}

std::optional<Position> Position::FromState(const PositionState& s) {
  if (!IsSupportedSize(s.size) || static_cast<int>(s.rules) > 1 ||
      static_cast<int>(s.to_move) > 1 || static_cast<int>(s.pending) >= kNumDecisions ||
      s.black_player < 0 || s.black_player > 1 || s.placed_this_turn < 0 ||
      s.placed_this_turn > 7 || s.turns_played < 0 || s.turns_played > 65535) {
    return std::nullopt;
  }
  const int squares = s.size * s.size;
  for (int sq : {s.last_placed, s.origin, s.moved_from, s.moved_to}) {
    if (sq < -1 || sq >= squares) return std::nullopt;
  }
  Position p = Initial(s.rules, s.size);
  for (int c = 0; c < 2; ++c) {
    p.stones_[c] = s.stones[c];
    p.claimed_[c] = s.claimed[c];
  }
  p.shooters_ = s.shooters;
  // Squares off the board (a 128-bit board holds more than 100) are refused before the hash
  // looks its keys up by square.
  for (const Bitboard& b : {s.stones[0], s.stones[1], s.shooters, s.claimed[0], s.claimed[1]}) {
    if ((b & ~p.Geo().board).Any()) return std::nullopt;
  }
  p.to_move_ = s.to_move;
  p.pending_ = s.pending;
  p.black_player_ = static_cast<uint8_t>(s.black_player);
  p.placed_this_turn_ = static_cast<uint8_t>(s.placed_this_turn);
  p.last_placed_ = static_cast<int8_t>(s.last_placed);
  p.origin_ = static_cast<int8_t>(s.origin);
  p.moved_from_ = static_cast<int8_t>(s.moved_from);
  p.moved_to_ = static_cast<int8_t>(s.moved_to);
  p.turns_played_ = static_cast<uint16_t>(s.turns_played);
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (p.ClaimCount(c) >= p.ClaimsToWin()) p.winner_ = static_cast<int8_t>(c);
  }
  p.hash_ = p.ComputeHash();
  if (!p.CheckInvariants()) return std::nullopt;
  return p;
}

bool Position::CheckInvariants() const {
  if (!IsSupportedSize(size_)) return false;
  const Geometry& g = Geo();
  const Bitboard parts[5] = {stones_[0], stones_[1], shooters_, claimed_[0], claimed_[1]};
  Bitboard seen;
  for (const Bitboard& b : parts) {
    if ((seen & b).Any() || (b & ~g.board).Any()) return false;
    seen |= b;
  }
  if (hash_ != ComputeHash()) return false;
  const SizeRules r = RulesForSize(size_);
  if (AllShooters().Count() > r.shooters) return false;
  const bool over =
      ClaimCount(Color::kBlack) >= r.claims_to_win || ClaimCount(Color::kWhite) >= r.claims_to_win;
  if (over != (pending_ == Decision::kGameOver) || over != (winner_ >= 0)) return false;
  if (pending_ == Decision::kDestination && (origin_ < 0 || !shooters_.Test(origin_))) {
    return false;
  }
  if (pending_ != Decision::kDestination && origin_ >= 0) return false;
  if (moved_to_ >= 0 && (pending_ != Decision::kShot || !shooters_.Test(moved_to_))) {
    return false;
  }
  if (pending_ >= Decision::kChooseShooter && AllShooters().Count() != r.shooters) return false;
  if (ClaimCount(Color::kBlack) >= r.claims_to_win &&
      ClaimCount(Color::kWhite) >= r.claims_to_win) {
    return false;
  }
  const bool standard = rules_ == RuleSet::kStandard;
  if (!standard &&
      (black_player_ != 0 || pending_ == Decision::kPie || pending_ == Decision::kSetupStone ||
       (pending_ == Decision::kSetupShooter && Stones().Any()))) {
    return false;
  }
  const int quota = to_move_ == Color::kBlack ? r.black_setup : r.shooters - r.black_setup;
  switch (pending_) {
    case Decision::kSetupShooter:
      if (placed_this_turn_ >= quota || AllShooters().Count() >= r.shooters) return false;
      break;
    case Decision::kSetupStone:
      if (placed_this_turn_ != quota) return false;
      break;
    case Decision::kPie:
      if (to_move_ != Color::kWhite || black_player_ != 0 || placed_this_turn_ != 0 ||
          AllShooters().Count() != r.black_setup) {
        return false;
      }
      break;
    default:
      if (placed_this_turn_ != 0) return false;
      break;
  }
  if ((last_placed_ >= 0) != (placed_this_turn_ > 0)) return false;
  if (last_placed_ >= 0 && !shooters_.Test(last_placed_)) return false;
  if ((moved_from_ >= 0) != (moved_to_ >= 0)) return false;
  if (moved_from_ >= 0 && (moved_from_ == moved_to_ || Occupied().Test(moved_from_))) return false;
  return true;
}

void Position::DebugCheck() const {
#ifdef VELETAS_CHECK_INVARIANTS
  if (!CheckInvariants()) {
    std::fprintf(stderr, "veletas: position invariant violated (decision %d)\n",
                 static_cast<int>(pending_));
    std::abort();
  }
#endif
}

bool Position::operator==(const Position& o) const {
  return stones_[0] == o.stones_[0] && stones_[1] == o.stones_[1] && shooters_ == o.shooters_ &&
         claimed_[0] == o.claimed_[0] && claimed_[1] == o.claimed_[1] && hash_ == o.hash_ &&
         size_ == o.size_ && rules_ == o.rules_ && to_move_ == o.to_move_ &&
         pending_ == o.pending_ && black_player_ == o.black_player_ &&
         placed_this_turn_ == o.placed_this_turn_ && last_placed_ == o.last_placed_ &&
         origin_ == o.origin_ && moved_from_ == o.moved_from_ && moved_to_ == o.moved_to_ &&
         winner_ == o.winner_;
}

}  // namespace veletas::rules
