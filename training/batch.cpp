#include "training/batch.h"

#include <algorithm>
#include <cassert>

#include "rules/symmetry.h"
#include "util/random.h"

namespace veletas::training {
namespace {

// A well-mixed seed for batch `index` of stream `seed` (util::SplitMix64 finaliser of both).
uint64_t BatchSeed(uint64_t seed, int64_t index) {
  return util::SplitMix64Finalise(seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(index) +
                                  0x632BE59BD9B4E019ULL);
}

}  // namespace

GamePhase PhaseOf(const rules::Position& p) {
  const rules::Decision d = p.Pending();
  if (d == rules::Decision::kSetupShooter || d == rules::Decision::kSetupStone ||
      d == rules::Decision::kPie) {
    return GamePhase::kSetup;
  }
  return p.TurnsPlayed() < kEarlyTurns ? GamePhase::kEarly : GamePhase::kLate;
}

void ResizeBatch(int batch, int canvas, TrainingBatch& out) {
  const size_t b = static_cast<size_t>(batch);
  const size_t area = static_cast<size_t>(canvas) * canvas;
  const size_t actions = static_cast<size_t>(model::CanvasActions(canvas));
  out.batch = batch;
  out.canvas = canvas;
  out.planes.resize(b * model::PlanesSize(canvas));
  out.policy.resize(b * actions);
  out.legal.resize(b * actions);
  out.value.resize(b);
  out.phase.resize(b);
  out.aux.resize(b * area);
  out.sample.resize(b);
  out.symmetry.resize(b);
}

void EncodeSample(const data::Sample& sample, int sym, double root_value_weight, int row,
                  TrainingBatch& out) {
  assert(sym == 0 || sample.position.IsSymmetricDecision());
  const int m = out.canvas;
  const int n = sample.position.Size();
  const size_t actions = static_cast<size_t>(model::CanvasActions(m));
  const size_t area = static_cast<size_t>(m) * m;
  const rules::Position pos = sym == 0 ? sample.position : sample.position.Transformed(sym);
  const rules::ActionSet legal = pos.LegalActions();
  model::EncodePosition(pos, legal, m,
                        out.planes.data() + static_cast<size_t>(row) * model::PlanesSize(m));

  model::EncodeLegal(n, legal, m, out.legal.data() + row * actions);

  float* policy_row = out.policy.data() + row * actions;
  std::fill_n(policy_row, actions, 0.0f);
  for (const data::PolicyEntry& e : sample.policy) {
    const rules::Action a = rules::TransformAction(n, sym, e.action);
    policy_row[model::CanvasAction(n, m, a)] += e.prob;
  }

  int64_t* aux_row = out.aux.data() + row * area;
  std::fill_n(aux_row, area, int64_t{-1});
  for (const data::AuxTarget& t : sample.aux) {
    const int sq = rules::TransformSquare(n, sym, t.square);
    aux_row[(sq / n) * m + sq % n] = static_cast<int64_t>(t.owner);
  }

  out.value[row] = static_cast<float>((1.0 - root_value_weight) * sample.outcome +
                                      root_value_weight * sample.root_value);
  out.phase[row] = static_cast<uint8_t>(PhaseOf(sample.position));
  out.symmetry[row] = sym;
}

void DrawBatch(const ReplayWindow& window, uint64_t seed, int64_t index, int batch,
               double root_value_weight, TrainingBatch& out) {
  assert(window.Size() > 0);
  util::Rng rng(BatchSeed(seed, index));
  ResizeBatch(batch, window.At(0).position.Size(), out);
  out.index = index;
  for (int i = 0; i < batch; ++i) {
    const auto k = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(window.Size())));
    // Always draw the symmetry so the stream does not depend on the kind of decision.
    const int drawn = static_cast<int>(rng.Below(rules::kNumSymmetries));
    const data::Sample& s = window.At(k);
    const int sym = s.position.IsSymmetricDecision() ? drawn : 0;
    out.sample[i] = k;
    EncodeSample(s, sym, root_value_weight, i, out);
  }
}

}  // namespace veletas::training
