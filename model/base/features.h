// Input encoding of a position for the network. Plain C++ (no Torch) so any layer may use it.
//
// A position of size N is encoded as kNumPlanes planes of a square canvas of side M >= N
// (float, layout [plane][row][col], row-major, M * M values per plane). The board occupies
// rows 0..N-1 and columns 0..N-1 of the canvas (square row * N + col of the position sits at
// canvas cell row * M + col); every value outside the board is 0 in every plane, the mask
// plane included, so one network serves all sizes (it masks activations with kPlaneMask).
// Everything is relative to the colour to move, Position::ToMove() ("own"; the other colour
// is "opponent").
//
// Planes, in order (square planes are 1 on the named squares, else 0; constant planes hold
// one value on every board square):
//   0  kPlaneOwnStones         stones of the colour to move
//   1  kPlaneOppStones         stones of the other colour
//   2  kPlaneUnclaimed         unclaimed shooters
//   3  kPlaneOwnClaimed        shooters claimed by the colour to move
//   4  kPlaneOppClaimed        shooters claimed by the other colour
//   5  kPlaneActiveShooter     the shooter chosen earlier in this turn: ChosenShooter() at
//                              kDestination, MovedTo() at kShot after a move
//   6  kPlaneMovedFrom         the square that shooter left: MovedFrom() at kShot after a move
//   7  kPlaneDecisionSetupShooter  constant 1 when the pending decision is kSetupShooter
//   8  kPlaneDecisionSetupStone    ... kSetupStone
//   9  kPlaneDecisionPie           ... kPie
//   10 kPlaneDecisionChooseShooter ... kChooseShooter
//   11 kPlaneDecisionDestination   ... kDestination
//   12 kPlaneDecisionShot          ... kShot
//   13 kPlaneOwnClaimsNeeded   constant (claims to win - own claims) / claims to win
//   14 kPlaneOppClaimsNeeded   constant (claims to win - opponent claims) / claims to win
//   15 kPlaneClassic           constant 1 under the classic rule set, else 0
//   16 kPlaneWhiteToMove       constant 1 when ToMove() is White, else 0
//   17 kPlaneLegal             squares that are legal actions of the pending decision (this
//                              carries the setup ordering and completability constraints)
//   18 kPlaneSetupLeft         constant (shooters not yet placed) / shooters of the size
//   19 kPlaneMask              1 on every square of the board
//
// The encoding commutes with the board symmetries, encode(p.Transformed(s)) == the planes
// of encode(p) transformed by s, whenever p.IsSymmetricDecision() (rules/position.h): for
// every position except the setup-shooter decisions, whose legal squares follow the
// notation order of placements. Augmentation must use the identity for those.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rules/geometry.h"
#include "rules/position.h"
#include "search/evaluator.h"

namespace veletas::model {

enum Plane : int {
  kPlaneOwnStones = 0,
  kPlaneOppStones,
  kPlaneUnclaimed,
  kPlaneOwnClaimed,
  kPlaneOppClaimed,
  kPlaneActiveShooter,
  kPlaneMovedFrom,
  kPlaneDecisionSetupShooter,
  kPlaneDecisionSetupStone,
  kPlaneDecisionPie,
  kPlaneDecisionChooseShooter,
  kPlaneDecisionDestination,
  kPlaneDecisionShot,
  kPlaneOwnClaimsNeeded,
  kPlaneOppClaimsNeeded,
  kPlaneClassic,
  kPlaneWhiteToMove,
  kPlaneLegal,
  kPlaneSetupLeft,
  kPlaneMask,
  kNumPlanes,
};

// Bumped whenever the meaning or order of the planes changes; stored in checkpoints.
inline constexpr int kFeatureVersion = 1;

// Short name (e.g. "own_stones") and one-line meaning of plane `p` (0 <= p < kNumPlanes).
const char* PlaneName(int p);
const char* PlaneMeaning(int p);

// Floats needed for one position on a canvas of side `canvas`.
constexpr int PlanesSize(int canvas) { return kNumPlanes * canvas * canvas; }

// Encodes `pos` (not terminal) into out[0 .. PlanesSize(canvas)), overwriting all of it.
// `legal` must be pos.LegalActions(). Precondition: pos.Size() <= canvas <= kMaxSize.
// Thread-safe (pure).
void EncodePosition(const rules::Position& pos, const rules::ActionSet& legal, int canvas,
                    float* out);
// The same, computing the legal actions itself.
void EncodePosition(const rules::Position& pos, int canvas, float* out);

// The legal-action row of a position of board `size` on a canvas of `canvas`: 1 at the
// canvas action of each legal action, 0 elsewhere. `row` has CanvasActions(canvas) bytes.
void EncodeLegal(int size, const rules::ActionSet& legal, int canvas, uint8_t* row);

// The canvas index of action `a` of a position of size `size` (squares move to
// row * canvas + col; the pass slot N * N moves to canvas * canvas).
constexpr int CanvasAction(int size, int canvas, rules::Action a) {
  return a == size * size ? canvas * canvas : (a / size) * canvas + a % size;
}
// Number of policy outputs of the network on a canvas of side `canvas`.
constexpr int CanvasActions(int canvas) { return canvas * canvas + 1; }

// A batch of encoded positions on one canvas, as the network and training consume it.
struct EncodedBatch {
  int batch = 0;
  int canvas = 0;
  std::vector<float> planes;   // [batch][kNumPlanes][canvas][canvas]
  std::vector<uint8_t> legal;  // [batch][CanvasActions(canvas)]: 1 for legal actions
};

// Encodes `positions` (none terminal) on a canvas of side `canvas` (0 = the largest size
// in the batch). Reuses `out`'s storage. Precondition: every size <= canvas <= kMaxSize.
void EncodeBatch(std::span<const rules::Position> positions, int canvas, EncodedBatch& out);

// The evaluator's output for position `i` of `batch` from the network's outputs on that
// batch: the softmax of its policy logits (`logits`, CanvasActions(batch.canvas) values for
// this position) over its legal actions (batch.legal's row i), in the position's own action
// numbering, and `value`. What search::Evaluator implementations of the network return.
void DecodeOutput(const EncodedBatch& batch, int i, int size, const float* logits, float value,
                  search::EvalOutput& out);

// `count` positions at sub-decision points (never terminal) taken from seeded uniformly
// random games: every sub-decision of every turn, setup included, in game order, games
// following each other until `count` are collected. Deterministic in `seed`.
std::vector<rules::Position> SamplePositions(rules::RuleSet rules, int size, int count,
                                             uint64_t seed);

// Applies board symmetry `sym` (rules/symmetry.h) to the planes of a size-`size` board
// encoded on a canvas of side `size` (used to check the encoding and for augmentation of
// encoded data). Returns the transformed planes.
std::vector<float> TransformPlanes(std::span<const float> planes, int size, int sym);

}  // namespace veletas::model
