// The Veletas position: copy-make, trivially copyable, 128-bit bitboards and an
// incremental Zobrist hash. A position is always at a sub-decision point: one of the
// steps that make up a full turn (see Decision). Rules are fixed by RULES.md.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "rules/bitboard.h"
#include "rules/geometry.h"

namespace veletas::rules {

enum class RuleSet : uint8_t { kStandard = 0, kClassic = 1 };
enum class Color : uint8_t { kBlack = 0, kWhite = 1 };
constexpr Color Opponent(Color c) { return c == Color::kBlack ? Color::kWhite : Color::kBlack; }
constexpr int Index(Color c) { return static_cast<int>(c); }

// The pending sub-decision. Each is a choice over the N*N squares plus one pass-like slot
// (action index N*N):
//  kSetupShooter  place the next setup shooter; squares only. Shooters of one setup turn
//                 are placed in notation order (column, then row), so every set of
//                 placements is reached by exactly one path.
//  kSetupStone    place the setup stone (standard rules); squares only.
//  kPie           standard rules, second player after Black's setup: the pass slot swaps
//                 colours; a square declines the swap and is White's first setup shooter.
//  kChooseShooter pick the unclaimed shooter to move (a square), or pass: no move.
//  kDestination   where the chosen shooter goes; squares only.
//  kShot          where the stone is shot; squares only.
//  kGameOver      no decision: the game has ended.
enum class Decision : uint8_t {
  kSetupShooter = 0,
  kSetupStone = 1,
  kPie = 2,
  kChooseShooter = 3,
  kDestination = 4,
  kShot = 5,
  kGameOver = 6,
};
inline constexpr int kNumDecisions = 7;

// Number of shooters, Black's setup share, and claims needed to win, per board size.
struct SizeRules {
  int shooters;
  int black_setup;
  int claims_to_win;
};
// Precondition: IsSupportedSize(size).
constexpr SizeRules RulesForSize(int size) {
  return size == 10 ? SizeRules{7, 3, 4} : size == 9 ? SizeRules{5, 2, 3} : SizeRules{3, 1, 2};
}

// An action index: a square (0 .. N*N-1, row * N + col) or the pass slot N*N.
using Action = int;

// The legal actions of the pending sub-decision.
struct ActionSet {
  Bitboard squares;
  bool pass = false;
  int Count() const { return squares.Count() + (pass ? 1 : 0); }
  bool Contains(Action a, int size) const {
    return a == size * size ? pass : (a >= 0 && a < size * size && squares.Test(a));
  }
};

struct PositionState;

class Position {
 public:
  // The empty board before setup, Black to place. Precondition: IsSupportedSize(size).
  static Position Initial(RuleSet rules, int size);

  // --- Observers (all O(1) unless noted). ---
  int Size() const { return size_; }
  RuleSet Rules() const { return rules_; }
  const Geometry& Geo() const { return GeometryFor(size_); }
  Decision Pending() const { return pending_; }
  bool IsTerminal() const { return pending_ == Decision::kGameOver; }
  // The colour to move (for kPie: White, the second player).
  Color ToMove() const { return to_move_; }
  // Which player holds Black: 0 = the first player, 1 = the second (after a swap).
  int BlackPlayer() const { return black_player_; }
  // The player (0 first, 1 second) holding colour `c`, and the colour player `player` holds.
  int PlayerOf(Color c) const { return c == Color::kBlack ? black_player_ : 1 - black_player_; }
  Color ColorOf(int player) const {
    return player == black_player_ ? Color::kBlack : Color::kWhite;
  }
  // The player (0 first, 1 second) who makes the pending decision.
  int ToMovePlayer() const { return PlayerOf(to_move_); }
  // Winner colour once the game is over.
  std::optional<Color> Winner() const {
    return winner_ < 0 ? std::nullopt : std::optional<Color>(static_cast<Color>(winner_));
  }
  Bitboard Stones(Color c) const { return stones_[Index(c)]; }
  Bitboard Stones() const { return stones_[0] | stones_[1]; }
  Bitboard UnclaimedShooters() const { return shooters_; }
  Bitboard Claimed(Color c) const { return claimed_[Index(c)]; }
  Bitboard AllShooters() const { return shooters_ | claimed_[0] | claimed_[1]; }
  Bitboard Occupied() const { return Stones() | AllShooters(); }
  Bitboard EmptySquares() const { return Geo().board & ~Occupied(); }
  int ClaimCount(Color c) const { return claimed_[Index(c)].Count(); }
  int ClaimsToWin() const { return RulesForSize(size_).claims_to_win; }
  // Shooter chosen in this turn (kDestination), else -1.
  int ChosenShooter() const { return origin_; }
  // Origin and destination of the shooter moved in this turn (kShot after a move), else -1.
  int MovedFrom() const { return moved_from_; }
  int MovedTo() const { return moved_to_; }
  // Setup: shooters placed so far in the current setup turn and the last one, or -1.
  int PlacedThisTurn() const { return placed_this_turn_; }
  int LastPlaced() const { return last_placed_; }
  // Full turns played so far (setup turns and a swap count as turns).
  int TurnsPlayed() const { return turns_played_; }
  uint64_t Hash() const { return hash_; }
  // The pass-like action index of this board size.
  Action PassAction() const { return size_ * size_; }

  // --- Sub-decisions (what search uses). ---
  // Legal actions of the pending decision; empty when terminal. Never empty otherwise.
  ActionSet LegalActions() const;
  bool IsLegal(Action a) const { return !IsTerminal() && LegalActions().Contains(a, size_); }
  // Applies one sub-decision action. Precondition: IsLegal(a) (checked in debug builds).
  void Apply(Action a);

  // --- Rule queries. ---
  // Squares an unclaimed shooter on `sq` may move to.
  Bitboard Destinations(int sq) const;
  // Squares a stone may be shot to from `sq` (the shooter standing there) in the current
  // occupancy.
  Bitboard ShotsFrom(int sq) const;
  // Squares shootable without moving: from any unclaimed shooter.
  Bitboard ShotsWithoutMove() const;
  // True when the unclaimed shooter on `sq` is trapped under the rule set.
  bool IsTrapped(int sq) const;
  // Size of the orthogonally connected group of `c` stones containing `sq` (0 if none).
  int GroupSize(Color c, int sq) const;
  // Legal squares for the next setup shooter (kSetupShooter or the placement side of kPie).
  Bitboard SetupShooterSquares() const;

  // --- Fast full-turn application for generators (no legality check). ---
  // Plays a turn of the play phase: optional shooter move from->to (from = -1: none), then
  // the shot. Precondition: Pending() == kChooseShooter and the turn is legal.
  void PlayTurn(int from, int to, int shot);

  // --- Construction for tests and tools. ---
  // A play-phase position with the given contents, `to_move` to choose a shooter.
  // Claims are not re-evaluated. Returns nullopt if the contents overlap or the size is
  // unsupported.
  static std::optional<Position> FromContents(RuleSet rules, int size, Bitboard black_stones,
                                              Bitboard white_stones, Bitboard shooters,
                                              Bitboard claimed_black, Bitboard claimed_white,
                                              Color to_move);

  // The position under board symmetry `sym` (see symmetry.h). Mid-setup positions keep
  // their placement-order state mapped square by square.
  Position Transformed(int sym) const;
  // True when the pending decision is symmetric: for every `sym`, the legal actions of
  // Transformed(sym) are the images (TransformAction) of LegalActions(). False for the setup
  // shooter decisions (kSetupShooter, kPie), also at the first placement of a turn: shooters
  // are placed in notation order, so which squares are legal depends on the orientation of
  // the board (e.g. the first of Black's three 10x10 shooters may not be i8 or i9). Use the
  // identity symmetry there (e.g. when augmenting training data). Full turns are symmetric
  // at every turn start (TransformTurn re-sorts setup placements).
  bool IsSymmetricDecision() const {
    return pending_ != Decision::kSetupShooter && pending_ != Decision::kPie;
  }

  // Every field, for serialisation (sample files, protocols).
  PositionState State() const;
  // The position with these fields; nullopt if they are inconsistent (CheckInvariants).
  static std::optional<Position> FromState(const PositionState& state);

  // Hash computed from scratch (for invariant checks).
  uint64_t ComputeHash() const;
  // Checks internal consistency; returns false on any violated invariant.
  bool CheckInvariants() const;

  bool operator==(const Position& o) const;

 private:
  void Toggle(int kind, int sq);  // piece kinds as in ZobristKeys::piece
  void SetDecision(Decision d);
  void SetToMove(Color c);
  void SetOrigin(int sq);
  void SetMoved(int from, int to);
  void SetLastPlaced(int sq, int count);
  void PlaceSetupShooter(int sq);
  void FinishSetupTurn();
  void ShootAndResolve(int sq);
  void EndTurn();
  bool SetupCompletable(int after_sq, int remaining, Bitboard placed) const;
  void DebugCheck() const;

  Bitboard stones_[2];
  Bitboard shooters_;
  Bitboard claimed_[2];
  uint64_t hash_ = 0;
  uint16_t turns_played_ = 0;
  uint8_t size_ = 10;
  RuleSet rules_ = RuleSet::kStandard;
  Color to_move_ = Color::kBlack;
  Decision pending_ = Decision::kSetupShooter;
  uint8_t black_player_ = 0;
  uint8_t placed_this_turn_ = 0;
  int8_t last_placed_ = -1;
  int8_t origin_ = -1;
  int8_t moved_from_ = -1;
  int8_t moved_to_ = -1;
  int8_t winner_ = -1;
};

// Every field of a Position as plain data (see Position::State / FromState).
struct PositionState {
  RuleSet rules = RuleSet::kStandard;
  int size = 10;
  Bitboard stones[2];
  Bitboard shooters;  // unclaimed
  Bitboard claimed[2];
  Color to_move = Color::kBlack;
  Decision pending = Decision::kSetupShooter;
  int black_player = 0;
  int placed_this_turn = 0;
  int last_placed = -1;
  int origin = -1;
  int moved_from = -1;
  int moved_to = -1;
  int turns_played = 0;
};

static_assert(std::is_trivially_copyable_v<Position>);

}  // namespace veletas::rules
