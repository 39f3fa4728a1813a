// Resume: a call killed at any step and run again gives the same network, optimiser state,
// step count, sampling state and metrics as an uninterrupted call (single-threaded Torch,
// fixed seed), for SGD and AdamW.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <type_traits>

#include "model/torch/checkpoint.h"
#include "tests/support/files.h"
#include "tests/support/swapped_file.h"
#include "tests/training/test_util.h"
#include "training/call_plan.h"
#include "training/metrics.h"
#include "training/replay_window.h"

namespace veletas::training {
namespace {

namespace fs = std::filesystem;
using testing::QuickRequest;
using testing::TempDir;

constexpr int64_t kSteps = 11;

// The data of every run: the same three files (content), wherever the run's directory is.
void WriteData(const TempDir& dir) {
  fs::create_directories(dir.File("data"));
  for (int k = 0; k < 3; ++k) {
    testing::WriteGames(dir.File("data/s_" + std::to_string(k) + ".vzs"), 1, 60 + k);
  }
}

TrainRequest Request(const TempDir& dir, Optimizer optimizer) {
  TrainRequest r = QuickRequest(dir);
  r.config.optimizer = optimizer;
  r.config.weight_decay = optimizer == Optimizer::kAdamW ? 0.01 : 1e-4;
  r.config.learning_rate = optimizer == Optimizer::kAdamW ? 0.003 : 0.02;
  r.config.warmup_steps = 3;
  r.config.checkpoint_every = 4;
  r.config.metrics_every = 3;
  r.steps = kSteps;
  return r;
}

struct Loaded {
  model::VeletasNet net{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  model::CheckpointMeta meta;
};

Loaded Load(const TrainRequest& r) {
  Loaded l;
  l.net = model::MakeNet(r.spec.arch);
  if (r.config.optimizer == Optimizer::kAdamW) {
    l.optimizer = std::make_unique<torch::optim::AdamW>(l.net->parameters());
  } else {
    l.optimizer = std::make_unique<torch::optim::SGD>(l.net->parameters(),
                                                      torch::optim::SGDOptions(0.1).momentum(0.9));
  }
  auto meta = model::LoadCheckpointInto(r.output_checkpoint, r.spec, l.net, l.optimizer.get());
  EXPECT_TRUE(meta.ok()) << meta.error();
  if (meta) l.meta = meta.value();
  return l;
}

// The key of `p`'s optimiser state: its TensorImpl's address, printed before LibTorch 2.x
// (which keys the state by the pointer itself).
template <class Key>
Key StateKey(const torch::Tensor& p) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream s;
    s << p.unsafeGetTensorImpl();
    return s.str();
  } else {
    return p.unsafeGetTensorImpl();
  }
}

// Every tensor of the optimiser state, in parameter order.
std::vector<torch::Tensor> OptimizerTensors(const Loaded& l) {
  using Key = typename std::decay_t<decltype(l.optimizer->state())>::key_type;
  std::vector<torch::Tensor> out;
  for (const torch::Tensor& p : l.net->parameters()) {
    const auto it = l.optimizer->state().find(StateKey<Key>(p));
    EXPECT_NE(it, l.optimizer->state().end());
    if (it == l.optimizer->state().end()) continue;
    if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(it->second.get())) {
      out.push_back(sgd->momentum_buffer());
    } else if (auto* adam = dynamic_cast<torch::optim::AdamWParamState*>(it->second.get())) {
      out.push_back(adam->exp_avg());
      out.push_back(adam->exp_avg_sq());
      out.push_back(torch::tensor(static_cast<double>(adam->step())));
    }
  }
  return out;
}

double MaxDifference(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    worst = std::max(
        worst, (a[i].to(torch::kDouble) - b[i].to(torch::kDouble)).abs().max().item<double>());
  }
  return worst;
}

std::vector<torch::Tensor> NetTensors(const Loaded& l) {
  std::vector<torch::Tensor> out;
  for (const auto& [name, t] : model::NamedTensors(l.net)) out.push_back(t);
  return out;
}

class ResumeTest : public ::testing::TestWithParam<std::tuple<Optimizer, int64_t>> {};

TEST_P(ResumeTest, KilledAndResumedEqualsUninterrupted) {
  const auto [optimizer, kill_after] = GetParam();
  TempDir straight_dir, killed_dir;
  WriteData(straight_dir);
  WriteData(killed_dir);
  const TrainRequest straight = Request(straight_dir, optimizer);
  const TrainResult a = TrainGeneration(straight);
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_FALSE(a.stats.resumed);

  TrainRequest killed = Request(killed_dir, optimizer);
  killed.abort_after_steps = kill_after;
  const TrainResult aborted = TrainGeneration(killed);
  ASSERT_EQ(aborted.status, TrainStatus::kAborted) << aborted.error;
  EXPECT_TRUE(fs::exists(TrainingStatePath(killed.output_checkpoint)));
  EXPECT_FALSE(fs::exists(killed.output_checkpoint));
  // New data arriving after the kill belongs to the next call, not to the resumed one.
  testing::WriteGames(killed_dir.File("data/s_3.vzs"), 1, 99);
  killed.abort_after_steps = -1;
  const TrainResult b = TrainGeneration(killed);
  ASSERT_TRUE(b.ok()) << b.error;
  EXPECT_TRUE(b.stats.resumed);
  // The last training-state file before the kill: every checkpoint_every steps, and step 0.
  EXPECT_EQ(b.stats.resumed_from_step, kill_after / 4 * 4);
  EXPECT_EQ(b.stats.steps, kSteps);
  EXPECT_EQ(b.stats.new_files, a.stats.new_files);
  EXPECT_EQ(b.stats.total_samples, a.stats.total_samples);
  EXPECT_FALSE(fs::exists(TrainingStatePath(killed.output_checkpoint)));

  const Loaded la = Load(straight), lb = Load(killed);
  EXPECT_EQ(MaxDifference(NetTensors(la), NetTensors(lb)), 0.0);
  EXPECT_EQ(MaxDifference(OptimizerTensors(la), OptimizerTensors(lb)), 0.0);
  EXPECT_EQ(la.meta.training_steps, kSteps);
  EXPECT_EQ(lb.meta.training_steps, kSteps);
  auto da = DataStateFromJson(la.meta.extra.at(kExtraData), "a");
  auto db = DataStateFromJson(lb.meta.extra.at(kExtraData), "b");
  ASSERT_TRUE(da.ok() && db.ok());
  EXPECT_EQ(da.value().batches_drawn, kSteps);
  EXPECT_EQ(db.value().batches_drawn, kSteps);
  EXPECT_EQ(da.value().samples_consumed, db.value().samples_consumed);
  EXPECT_EQ(da.value().total_samples, db.value().total_samples);
  EXPECT_EQ(db.value().files.size(), 3u);  // s_3.vzs is left for the next call

  // metrics.jsonl: the lines of the killed attempt after its last checkpoint were cut, so
  // both runs have the same lines with the same values.
  auto ma = ReadMetrics(straight_dir.File("out/metrics.jsonl"));
  auto mb = ReadMetrics(killed_dir.File("out/metrics.jsonl"));
  ASSERT_TRUE(ma.ok() && mb.ok());
  ASSERT_EQ(ma.value().size(), mb.value().size());
  for (size_t i = 0; i < ma.value().size(); ++i) {
    EXPECT_EQ(ma.value()[i].step, mb.value()[i].step);
    EXPECT_EQ(ma.value()[i].steps, mb.value()[i].steps);
    EXPECT_NEAR(ma.value()[i].loss_total, mb.value()[i].loss_total, 1e-6);
    EXPECT_NEAR(ma.value()[i].loss_l2, mb.value()[i].loss_l2, 1e-9);
  }

  // The next call ingests exactly the file that arrived after the kill.
  TrainRequest next = killed;
  next.input_checkpoint = killed.output_checkpoint;
  next.output_checkpoint = killed_dir.File("out/gen2.ckpt");
  next.steps = 1;
  const TrainResult c = TrainGeneration(next);
  ASSERT_TRUE(c.ok()) << c.error;
  EXPECT_EQ(c.stats.new_files, 1);
  EXPECT_FALSE(c.stats.resumed);
}

INSTANTIATE_TEST_SUITE_P(KillPoints, ResumeTest,
                         ::testing::Values(std::make_tuple(Optimizer::kSgd, int64_t{2}),
                                           std::make_tuple(Optimizer::kSgd, int64_t{6}),
                                           std::make_tuple(Optimizer::kAdamW, int64_t{9})));

// The input checkpoint and the training-state file are each read once per call: a file
// that changes after its first read (test_support::SwappedFile) changes nothing.
TEST(ReadOnce, TrainingReadsItsInputAndItsStateFileOnce) {
  TempDir straight_dir, swapped_dir, resumed_dir;
  for (const TempDir* d : {&straight_dir, &swapped_dir, &resumed_dir}) WriteData(*d);
  const TrainRequest straight = Request(straight_dir, Optimizer::kSgd);
  ASSERT_TRUE(TrainGeneration(straight).ok());
  const Loaded expected = Load(straight);

  // The input turns into another network (another seed) once it has been opened.
  const std::string other = swapped_dir.File("other.ckpt");
  ASSERT_TRUE(model::CreateInitialCheckpoint(other, straight.spec, 2).ok());
  const std::string input = swapped_dir.File("init.ckpt");
  test_support::SwappedFile swapped_input(input, test_support::ReadAll(straight.input_checkpoint),
                                          test_support::ReadAll(other));
  const TrainRequest from_swapped = Request(swapped_dir, Optimizer::kSgd);
  ASSERT_EQ(from_swapped.input_checkpoint, input);
  const TrainResult a = TrainGeneration(from_swapped);
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_TRUE(swapped_input.Served());
  EXPECT_EQ(MaxDifference(NetTensors(expected), NetTensors(Load(from_swapped))), 0.0);

  // A resumed call: the state file turns into junk once it has been opened.
  TrainRequest killed = Request(resumed_dir, Optimizer::kSgd);
  killed.abort_after_steps = 6;
  ASSERT_EQ(TrainGeneration(killed).status, TrainStatus::kAborted);
  const std::string state = TrainingStatePath(killed.output_checkpoint);
  test_support::SwappedFile swapped_state(state, test_support::ReadAll(state), "junk");
  killed.abort_after_steps = -1;
  const TrainResult b = TrainGeneration(killed);
  ASSERT_TRUE(b.ok()) << b.error;
  EXPECT_TRUE(b.stats.resumed);
  EXPECT_EQ(b.stats.resumed_from_step, 4);
  EXPECT_TRUE(swapped_state.Served());
  const Loaded resumed = Load(killed);
  EXPECT_EQ(MaxDifference(NetTensors(expected), NetTensors(resumed)), 0.0);
  EXPECT_EQ(MaxDifference(OptimizerTensors(expected), OptimizerTensors(resumed)), 0.0);
}

}  // namespace
}  // namespace veletas::training
