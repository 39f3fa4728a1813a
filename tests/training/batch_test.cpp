// Augmentation and batch drawing: every symmetric sample's planes, legal mask, policy, aux
// and value targets under each of the 8 symmetries agree with the rules core's symmetries
// and the model's encoding; non-symmetric decisions keep the identity; the stream is
// deterministic and the loader thread delivers exactly it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "model/base/features.h"
#include "rules/symmetry.h"
#include "training/batch.h"
#include "training/batch_loader.h"
#include "training/synthetic_data.h"

namespace veletas::training {
namespace {

std::vector<data::Sample> Samples(rules::RuleSet rs, int size, int games, uint64_t seed) {
  return RandomGameSamples(rs, size, games, seed, 0.6).samples;
}

// Checks the encoding of `s` under `sym` against independent computations.
void CheckEncoding(const data::Sample& s, int sym) {
  const int n = s.position.Size();
  TrainingBatch b;
  ResizeBatch(1, n, b);
  EncodeSample(s, sym, 0.25, 0, b);
  const rules::Position moved = s.position.Transformed(sym);

  // Planes: the original planes moved square by square, and the encoding of the moved position.
  std::vector<float> original(model::PlanesSize(n));
  model::EncodePosition(s.position, n, original.data());
  ASSERT_EQ(b.planes, model::TransformPlanes(original, n, sym)) << "sym " << sym;
  std::vector<float> direct(model::PlanesSize(n));
  model::EncodePosition(moved, n, direct.data());
  ASSERT_EQ(b.planes, direct);

  // Legal mask: the legal actions of the moved position.
  const rules::ActionSet legal = moved.LegalActions();
  const int actions = model::CanvasActions(n);
  for (int a = 0; a < actions; ++a) {
    const rules::Action action = a == n * n ? moved.PassAction() : a;
    ASSERT_EQ(b.legal[a], legal.Contains(action, n) ? 1 : 0) << "action " << a;
  }
  // Policy: each entry's probability at the image of its action, which is legal in the
  // moved position; nothing anywhere else.
  std::vector<float> expected(actions, 0.0f);
  for (const data::PolicyEntry& e : s.policy) {
    const rules::Action image = rules::TransformAction(n, sym, e.action);
    ASSERT_TRUE(moved.IsLegal(image)) << "sym " << sym << " action " << int(e.action);
    expected[image] += e.prob;  // canvas == size: canvas index == action index
  }
  for (int a = 0; a < actions; ++a) {
    ASSERT_FLOAT_EQ(b.policy[a], expected[a]) << "action " << a;
    if (b.policy[a] > 0) {
      ASSERT_EQ(b.legal[a], 1) << "target on an illegal action " << a;
    }
  }
  // Aux: the owner of each shooter at its moved square; -1 exactly where no shooter stands
  // in the moved position.
  const rules::Bitboard shooters = moved.AllShooters();
  for (int sq = 0; sq < n * n; ++sq) {
    ASSERT_EQ(b.aux[sq] >= 0, shooters.Test(sq)) << "square " << sq;
  }
  for (const data::AuxTarget& t : s.aux) {
    ASSERT_EQ(b.aux[rules::TransformSquare(n, sym, t.square)], static_cast<int64_t>(t.owner));
  }
  EXPECT_FLOAT_EQ(b.value[0], 0.75f * s.outcome + 0.25f * s.root_value);
  EXPECT_EQ(b.symmetry[0], sym);
}

TEST(Augmentation, EverySymmetricSampleMapsConsistently) {
  int symmetric = 0, identity_only = 0;
  for (const auto& [rs, size] :
       {std::pair{rules::RuleSet::kStandard, 7}, std::pair{rules::RuleSet::kClassic, 9},
        std::pair{rules::RuleSet::kStandard, 10}}) {
    for (const data::Sample& s : Samples(rs, size, size == 7 ? 3 : 1, 40 + size)) {
      if (!s.position.IsSymmetricDecision()) {
        ++identity_only;
        CheckEncoding(s, 0);
        continue;
      }
      ++symmetric;
      for (int sym = 0; sym < rules::kNumSymmetries; ++sym) CheckEncoding(s, sym);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(symmetric, 100);
  EXPECT_GT(identity_only, 5);
}

TEST(GamePhase, SetupEarlyAndLateFollowTheDecisionAndTheTurns) {
  const std::vector<data::Sample> samples = Samples(rules::RuleSet::kStandard, 7, 3, 5);
  int seen[kNumGamePhases] = {};
  for (const data::Sample& s : samples) {
    const rules::Decision d = s.position.Pending();
    const bool setup = d == rules::Decision::kSetupShooter || d == rules::Decision::kSetupStone ||
                       d == rules::Decision::kPie;
    const GamePhase expected = setup                                    ? GamePhase::kSetup
                               : s.position.TurnsPlayed() < kEarlyTurns ? GamePhase::kEarly
                                                                        : GamePhase::kLate;
    ASSERT_EQ(PhaseOf(s.position), expected) << s.position.TurnsPlayed();
    ++seen[static_cast<int>(expected)];
  }
  EXPECT_GT(seen[0], 0);
  EXPECT_GT(seen[1], 0);
  // The batch carries each sample's phase.
  const ReplayWindow window(samples);
  TrainingBatch b;
  DrawBatch(window, 3, 0, 32, 0.0, b);
  ASSERT_EQ(b.phase.size(), 32u);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(b.phase[i], static_cast<uint8_t>(PhaseOf(window.At(b.sample[i]).position)));
  }
}

TEST(DrawBatch, NonSymmetricDecisionsKeepTheIdentity) {
  std::vector<data::Sample> setup, play;
  for (data::Sample& s : Samples(rules::RuleSet::kStandard, 7, 4, 7)) {
    (s.position.IsSymmetricDecision() ? play : setup).push_back(std::move(s));
  }
  ASSERT_FALSE(setup.empty());
  const ReplayWindow setup_window(setup), play_window(play);
  std::array<int, rules::kNumSymmetries> counts{};
  TrainingBatch b;
  for (int64_t index = 0; index < 25; ++index) {
    DrawBatch(setup_window, 5, index, 32, 0.0, b);
    for (int sym : b.symmetry) EXPECT_EQ(sym, 0);
    DrawBatch(play_window, 5, index, 32, 0.0, b);
    for (int sym : b.symmetry) ++counts[sym];
  }
  // 800 draws over 8 symmetries: each about 100 (a generous band, 6 standard deviations).
  for (int sym = 0; sym < rules::kNumSymmetries; ++sym) {
    EXPECT_GT(counts[sym], 45) << sym;
    EXPECT_LT(counts[sym], 155) << sym;
  }
}

TEST(DrawBatch, DeterministicInSeedAndIndexAndUniformOverTheWindow) {
  const ReplayWindow window(Samples(rules::RuleSet::kStandard, 7, 2, 9));
  TrainingBatch a, b, c;
  DrawBatch(window, 3, 17, 64, 0.0, a);
  DrawBatch(window, 3, 17, 64, 0.0, b);
  EXPECT_EQ(a.planes, b.planes);
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.sample, b.sample);
  EXPECT_EQ(a.symmetry, b.symmetry);
  DrawBatch(window, 3, 18, 64, 0.0, c);
  EXPECT_NE(a.sample, c.sample);
  DrawBatch(window, 4, 17, 64, 0.0, c);
  EXPECT_NE(a.sample, c.sample);
  // Every sample index is reachable: over many batches, each index of the window is drawn.
  std::vector<int> seen(window.Size(), 0);
  for (int64_t i = 0; i < 200; ++i) {
    DrawBatch(window, 3, i, 64, 0.0, c);
    for (int64_t k : c.sample) ++seen[k];
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 0), 0);
}

TEST(BatchLoader, DeliversTheStreamInOrderAndStops) {
  const ReplayWindow window(Samples(rules::RuleSet::kStandard, 7, 1, 12));
  BatchLoader loader(window, 8, 3, 5, 16, 0.0, 2);
  for (int64_t i = 0; i < 5; ++i) {
    std::unique_ptr<TrainingBatch> got = loader.Next();
    ASSERT_NE(got, nullptr);
    TrainingBatch expected;
    DrawBatch(window, 8, 3 + i, 16, 0.0, expected);
    EXPECT_EQ(got->index, 3 + i);
    EXPECT_EQ(got->planes, expected.planes);
    EXPECT_EQ(got->policy, expected.policy);
    EXPECT_EQ(got->aux, expected.aux);
    loader.Recycle(std::move(got));
  }
  EXPECT_EQ(loader.Next(), nullptr);
  // Destroying a loader with batches still to draw stops its thread.
  BatchLoader unfinished(window, 8, 0, 1'000'000, 16, 0.0, 2);
  EXPECT_NE(unfinished.Next(), nullptr);
}

// An exception while drawing a batch on the loader's thread is not std::terminate: it
// reaches the consumer when that batch is due, after the batches drawn before it.
TEST(BatchLoader, AnExceptionOnTheLoaderThreadReachesTheConsumer) {
  BatchLoader loader(
      [](int64_t index, TrainingBatch& out) {
        if (index == 13) throw std::runtime_error("sample file vanished");
        out.index = index;
      },
      10, 6, 2);
  for (int64_t i = 10; i < 13; ++i) {
    std::unique_ptr<TrainingBatch> got = loader.Next();
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->index, i);
  }
  try {
    loader.Next();
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "sample file vanished");
  }
}

}  // namespace
}  // namespace veletas::training
