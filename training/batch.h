// Training batches: uniform sampling from the replay window, symmetry augmentation and the
// encoding of inputs and targets into flat arrays in the layouts of model/torch/losses.h
// (the trainer wraps them as tensors without copying). Torch-free.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "data/sample.h"
#include "model/base/features.h"
#include "rules/position.h"
#include "training/replay_window.h"

namespace veletas::training {

// Phases of a game, for the value loss by phase in the metrics: the setup decisions (the pie
// decision included), the early play phase (fewer than kEarlyTurns full turns played, setup
// turns counted) and the rest. At the empty board the outcome is close to a coin flip, so
// the value loss of the setup phase shows how much of the total is noise no network removes.
enum class GamePhase : uint8_t { kSetup = 0, kEarly = 1, kLate = 2 };
inline constexpr int kNumGamePhases = 3;
inline constexpr int kEarlyTurns = 12;

// The phase of `p`.
GamePhase PhaseOf(const rules::Position& p);

// One batch of B samples on a canvas of side M (A = M * M + 1 actions).
struct TrainingBatch {
  int64_t index = -1;  // position in the sampling stream
  int batch = 0;
  int canvas = 0;
  std::vector<float> planes;    // [B][kNumPlanes][M][M]
  std::vector<float> policy;    // [B][A]: target probabilities, 0 on illegal actions
  std::vector<uint8_t> legal;   // [B][A]: 1 on legal actions
  std::vector<float> value;     // [B]: value target for the player to move
  std::vector<uint8_t> phase;   // [B]: GamePhase of each sample
  std::vector<int64_t> aux;     // [B][M][M]: data::Owner, -1 where no shooter
  std::vector<int64_t> sample;  // [B]: index in the window of each sample
  std::vector<int> symmetry;    // [B]: symmetry applied (rules/symmetry.h)
};

// Encodes `sample` under board symmetry `sym` into position `row` of `out` (already sized
// for out.batch rows on canvas out.canvas): the planes of sample.position.Transformed(sym),
// the policy and aux targets mapped square by square (TransformAction / TransformSquare),
// the value target (1 - root_value_weight) * outcome + root_value_weight * root_value.
// Precondition: sym == 0 unless sample.position.IsSymmetricDecision(); the sample is valid
// (as data::ReadSampleFile guarantees) and its size <= out.canvas. Thread-safe (pure).
void EncodeSample(const data::Sample& sample, int sym, double root_value_weight, int row,
                  TrainingBatch& out);

// Resizes `out` for `batch` rows on canvas `canvas` (keeps its storage).
void ResizeBatch(int batch, int canvas, TrainingBatch& out);

// Draws batch number `index` of the sampling stream of `seed`: `batch` window indices
// uniformly with replacement and, for each sample, a uniformly random symmetry of the 8
// (the identity when its decision is not symmetric), then encodes them on a canvas of the
// board size. Deterministic in (seed, index, window contents). Precondition: window.Size() > 0.
// Thread-safe for distinct `out`.
void DrawBatch(const ReplayWindow& window, uint64_t seed, int64_t index, int batch,
               double root_value_weight, TrainingBatch& out);

}  // namespace veletas::training
