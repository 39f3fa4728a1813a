// TrainGeneration end to end on a tiny real network: the loss falls on a fixed data set,
// metrics lines carry every field, generations chain (step count, optimiser state, data
// bookkeeping), and bad data, checkpoints and configs give clear errors.
#include <gtest/gtest.h>
#include <algorithm>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/network_evaluator.h"
#include "model/torch/checkpoint.h"
#include "tests/support/files.h"
#include "tests/training/test_util.h"
#include "training/call_plan.h"
#include "training/lr_schedule.h"
#include "training/metrics.h"
#include "training/replay_window.h"
#include "training/train_precision.h"

namespace veletas::training {
namespace {

namespace fs = std::filesystem;
using testing::QuickRequest;
using testing::TempDir;
using testing::TrainAndReadMetrics;
using testing::WriteGames;

// A small solved data set: positions of random games whose targets are functions of the
// position that the network can represent: the policy is uniform over the legal actions,
// the value is +1 when Black is to move and -1 otherwise, each shooter's aux target is its
// claim state (own, opponent, unclaimed). The loss can fall to the policy's entropy.
data::SampleFile SolvedSamples(int games, uint64_t seed) {
  data::SampleFile f = RandomGameSamples(rules::RuleSet::kStandard, 7, games, seed, 0.0);
  for (data::Sample& s : f.samples) {
    const rules::Position& p = s.position;
    s.outcome = p.ToMove() == rules::Color::kBlack ? 1.0f : -1.0f;
    for (data::AuxTarget& t : s.aux) {
      t.owner = p.Claimed(p.ToMove()).Test(t.square)                    ? data::Owner::kToMove
                : p.Claimed(rules::Opponent(p.ToMove())).Test(t.square) ? data::Owner::kOpponent
                                                                        : data::Owner::kNobody;
    }
  }
  return f;
}

// Trains 100 steps on `device` at `precision` (with the value cross-entropy when
// `value_cross_entropy`) and checks that every loss term falls towards its floor.
void ExpectLossFalls(model::Device device, TrainPrecision precision = TrainPrecision::kFp32,
                     bool value_cross_entropy = false) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(test_support::ErrorText(data::WriteSampleFile(
                  dir.File("data/s_" + std::to_string(k) + ".vzs"), SolvedSamples(2, 100 + k))),
              "");
  }
  TrainRequest r = QuickRequest(dir);
  r.config.batch_size = 32;
  r.config.learning_rate = 0.05;
  r.config.aux_weight = 0.5;
  r.config.metrics_every = 10;
  r.config.checkpoint_every = 1000;
  r.steps = 100;
  r.device = device;
  r.config.precision = precision;
  // bf16 here is LibTorch's autocast (engine_test.cpp trains the oneDNN path in bf16).
  if (precision == TrainPrecision::kBf16) r.config.engine = TrainEngine::kTorch;
  r.config.value_cross_entropy = value_cross_entropy;
  const TrainResult result = TrainGeneration(r);
  ASSERT_TRUE(result.ok()) << result.error;
  EXPECT_EQ(result.stats.precision, TrainPrecisionName(precision));
  auto lines = ReadMetrics(dir.File("out/metrics.jsonl"));
  ASSERT_TRUE(lines.ok()) << lines.error();
  ASSERT_EQ(lines.value().size(), 10u);
  const MetricsLine& first = lines.value().front();
  const MetricsLine& last = lines.value().back();
  // Well on the way down to the floor, the target entropy (which varies with the batches),
  // in every term.
  auto excess = [](const MetricsLine& m) { return m.loss_total - m.policy_target_entropy; };
  EXPECT_LT(excess(last), 0.3 * excess(first)) << first.loss_total << " " << last.loss_total;
  EXPECT_LT(last.loss_value, 0.3 * first.loss_value);
  EXPECT_LT(last.loss_aux, 0.3 * first.loss_aux);
  EXPECT_LT(last.loss_policy - last.policy_target_entropy,
            0.5 * (first.loss_policy - first.policy_target_entropy));
  EXPECT_GT(last.value_accuracy, 0.9);
  EXPECT_NEAR(result.stats.loss_total, last.loss_total, 1e-12);
  // The output loads on the CPU whatever device trained it.
  auto loaded = model::NetworkEvaluator::Open(r.output_checkpoint, r.spec, model::NetConfig{});
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().meta.training_steps, 100);
}

TEST(Trainer, LossFallsOnAFixedDataSet) { ExpectLossFalls(model::Device::kCpu); }

// The same with the value head trained by cross-entropy (training.value_loss: cross_entropy).
TEST(Trainer, LossFallsOnAFixedDataSetWithTheValueCrossEntropy) {
  ExpectLossFalls(model::Device::kCpu, TrainPrecision::kFp32, true);
}

// The first step's value loss of a fresh network (values near 0, results +-1): the squared
// error near 1, the cross-entropy near ln 2.
TEST(Trainer, TheValueLossIsTheConfiguredOne) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  ASSERT_EQ(
      test_support::ErrorText(data::WriteSampleFile(dir.File("data/s.vzs"), SolvedSamples(2, 100))),
      "");
  std::vector<double> first_loss;
  for (bool cross_entropy : {false, true}) {
    TrainRequest r = QuickRequest(dir);
    r.output_checkpoint = dir.File(cross_entropy ? "ce/out.ckpt" : "mse/out.ckpt");
    fs::create_directories(fs::path(r.output_checkpoint).parent_path());
    r.config.batch_size = 32;
    r.config.metrics_every = 1;
    r.config.value_cross_entropy = cross_entropy;
    r.steps = 1;
    const TrainResult result = TrainGeneration(r);
    ASSERT_TRUE(result.ok()) << result.error;
    auto lines =
        ReadMetrics((fs::path(r.output_checkpoint).parent_path() / "metrics.jsonl").string());
    ASSERT_TRUE(lines.ok()) << lines.error();
    ASSERT_EQ(lines.value().size(), 1u);
    first_loss.push_back(lines.value().front().loss_value);
  }
  EXPECT_NEAR(first_loss[0], 1.0, 0.15);
  EXPECT_NEAR(first_loss[1], std::log(2.0), 0.08);
}

// The same with the forward and backward pass in bf16 (training.precision: bf16).
TEST(Trainer, LossFallsOnAFixedDataSetInBf16) {
  if (!ThisCpu().avx512_bf16) GTEST_SKIP() << "this CPU lacks AVX-512 BF16";
  ExpectLossFalls(model::Device::kCpu, TrainPrecision::kBf16);
}

// The losses of one step from the same network on the same batch, in fp32 and in bf16:
// bf16 keeps 8 bits of mantissa (relative rounding 2^-9 = 0.2%), and the errors of the
// convolutions' products partly cancel over their sums; the tolerance is 2% of each loss
// (plus 1e-3 for a loss near 0).
TEST(Trainer, Bf16FirstStepLossesAgreeWithFp32) {
  if (!ThisCpu().avx512_bf16) GTEST_SKIP() << "this CPU lacks AVX-512 BF16";
  TempDir dir;
  fs::create_directories(dir.File("data"));
  ASSERT_EQ(test_support::ErrorText(
                data::WriteSampleFile(dir.File("data/s_0.vzs"), SolvedSamples(2, 100))),
            "");
  MetricsLine first[2];
  const TrainPrecision precisions[2] = {TrainPrecision::kFp32, TrainPrecision::kBf16};
  for (int i = 0; i < 2; ++i) {
    TrainRequest r = QuickRequest(dir);
    r.config.batch_size = 32;
    r.config.precision = precisions[i];
    r.config.engine = TrainEngine::kTorch;  // autocast against LibTorch fp32
    r.config.metrics_every = 1;
    r.steps = 1;
    const std::string name = TrainPrecisionName(precisions[i]);
    TrainResult result;
    ASSERT_NO_FATAL_FAILURE(TrainAndReadMetrics(r, dir, name, &result, &first[i]));
    ASSERT_EQ(result.stats.precision, name);
  }
  auto near = [](double fp32, double bf16) { return std::abs(bf16 - fp32) <= 0.02 * fp32 + 1e-3; };
  EXPECT_PRED2(near, first[0].loss_policy, first[1].loss_policy);
  EXPECT_PRED2(near, first[0].loss_value, first[1].loss_value);
  EXPECT_PRED2(near, first[0].loss_aux, first[1].loss_aux);
  EXPECT_GT(first[0].loss_value, 0.05);  // a loss that rounding could change
  // Not the same arithmetic: the losses differ somewhere.
  EXPECT_NE(first[0].loss_total, first[1].loss_total);
}

// The decision: fp32 stays fp32; bf16 where the CPU has AVX-512 BF16 or on CUDA, else fp32
// with a one-line message naming the missing instructions.
TEST(Trainer, Bf16FallsBackToFp32OnACpuWithoutIt) {
  const CpuFeatures with{.avx512_bf16 = true}, without{.avx512_bf16 = false};
  EXPECT_EQ(
      ChooseTrainPrecision(TrainPrecision::kBf16, TrainEngine::kOnednn, false, with).precision,
      TrainPrecision::kBf16);
  EXPECT_EQ(ChooseTrainPrecision(TrainPrecision::kBf16, TrainEngine::kOnednn, false, with).note,
            "");
  const PrecisionChoice fallback =
      ChooseTrainPrecision(TrainPrecision::kBf16, TrainEngine::kOnednn, false, without);
  EXPECT_EQ(fallback.precision, TrainPrecision::kFp32);
  EXPECT_NE(fallback.note.find("avx512_bf16"), std::string::npos) << fallback.note;
  EXPECT_NE(fallback.note.find("fp32"), std::string::npos) << fallback.note;
  EXPECT_EQ(fallback.note.find('\n'), std::string::npos);
  EXPECT_EQ(
      ChooseTrainPrecision(TrainPrecision::kBf16, TrainEngine::kTorch, true, without).precision,
      TrainPrecision::kBf16);
  for (const CpuFeatures& cpu : {with, without}) {
    const PrecisionChoice fp32 =
        ChooseTrainPrecision(TrainPrecision::kFp32, TrainEngine::kOnednn, false, cpu);
    EXPECT_EQ(fp32.precision, TrainPrecision::kFp32);
    EXPECT_EQ(fp32.note, "");
  }
}

// The same on the GPU, where there is one (model.device: cuda).
TEST(Trainer, LossFallsOnAFixedDataSetOnCuda) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  ExpectLossFalls(model::Device::kCuda);
}

TEST(Trainer, MetricsLinesCarryEveryField) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  WriteGames(dir.File("data/s_0.vzs"), 2, 7);
  TrainRequest r = QuickRequest(dir);
  r.config.warmup_steps = 4;  // the rate changes from step to step
  r.config.metrics_every = 4;
  r.config.checkpoint_every = 3;
  r.steps = 8;
  int progress_calls = 0;
  r.progress = [&](const TrainProgress& p) {
    ++progress_calls;
    EXPECT_EQ(p.steps, 8);
    EXPECT_GE(p.step, 1);
    EXPECT_TRUE(std::isfinite(p.loss_total));
    EXPECT_GE(p.eta_seconds, 0);
    if (p.step == p.steps) {
      EXPECT_EQ(p.eta_seconds, 0);
    }
    EXPECT_GT(p.samples_per_second, 0);
  };
  const TrainResult result = TrainGeneration(r);
  ASSERT_TRUE(result.ok()) << result.error;
  // Timed from the third step to the end, across the checkpoints at steps 3 and 6.
  EXPECT_GT(result.stats.loop_samples_per_second, 0);
  EXPECT_GE(progress_calls, 4);  // at least once per metrics line
  std::ifstream in(dir.File("out/metrics.jsonl"));
  std::string text;
  std::vector<int64_t> steps;
  while (std::getline(in, text)) {
    const nlohmann::json j = nlohmann::json::parse(text);
    for (const std::string& field : MetricsFieldNames()) {
      ASSERT_TRUE(j.contains(field)) << field << " missing in " << text;
      ASSERT_TRUE(j[field].is_number()) << field;
      ASSERT_TRUE(std::isfinite(j[field].get<double>())) << field;
    }
    EXPECT_EQ(j.size(), MetricsFieldNames().size()) << text;
    const int64_t step = j["step"].get<int64_t>();
    EXPECT_EQ(j["generation"].get<int64_t>(), 1);
    EXPECT_DOUBLE_EQ(j["learning_rate"].get<double>(), LearningRate(r.config, step - 1));
    EXPECT_GT(j["samples_per_second"].get<double>(), 0);
    EXPECT_GE(j["value_accuracy"].get<double>(), 0);
    EXPECT_LE(j["value_accuracy"].get<double>(), 1);
    EXPECT_GT(j["loss_l2"].get<double>(), 0);
    const double total = j["loss_policy"].get<double>() + j["loss_value"].get<double>() +
                         0.1 * j["loss_aux"].get<double>() + j["loss_l2"].get<double>();
    EXPECT_NEAR(j["loss_total"].get<double>(), total, 1e-9);
    // The target entropy bounds the policy cross-entropy from below.
    EXPECT_LE(j["policy_target_entropy"].get<double>(), j["loss_policy"].get<double>() + 1e-6);
    // The value loss is the sample-weighted mean of the phases' value losses: between the
    // smallest and the largest of the phases seen (random games have samples of each).
    std::vector<double> phases;
    for (const char* key : {"loss_value_setup", "loss_value_early", "loss_value_late"}) {
      if (j[key].get<double>() >= 0) phases.push_back(j[key].get<double>());
    }
    ASSERT_GE(phases.size(), 2u) << text;
    EXPECT_GE(j["loss_value"].get<double>(),
              *std::min_element(phases.begin(), phases.end()) - 1e-6);
    EXPECT_LE(j["loss_value"].get<double>(),
              *std::max_element(phases.begin(), phases.end()) + 1e-6);
    steps.push_back(step);
  }
  // Windows end at multiples of metrics_every (4, 8), at the checkpoints (3, 6) and at the
  // end (8).
  EXPECT_EQ(steps, (std::vector<int64_t>{3, 4, 6, 8}));
}

TEST(Trainer, GenerationsChainStepsOptimiserAndData) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  const int64_t a = WriteGames(dir.File("data/s_0.vzs"), 2, 1);
  TrainRequest r = QuickRequest(dir);
  r.config.max_sample_reuse = 1.0;
  auto first = TrainGeneration(r);
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_EQ(first.stats.new_files, 1);
  EXPECT_EQ(first.stats.new_samples, a);
  EXPECT_EQ(first.stats.steps, a / r.config.batch_size);  // one use per sample on average
  auto meta1 = model::ReadCheckpointMeta(r.output_checkpoint);
  ASSERT_TRUE(meta1.ok());
  EXPECT_EQ(meta1.value().generation, 1);
  EXPECT_EQ(meta1.value().training_steps, first.stats.steps);
  EXPECT_EQ(meta1.value().optimizer, "sgd");
  EXPECT_FALSE(fs::exists(TrainingStatePath(r.output_checkpoint)));

  // Generation 2 from generation 1 with one more file: only that file is new.
  const int64_t b = WriteGames(dir.File("data/s_1.vzs"), 2, 2);
  TrainRequest r2 = r;
  r2.input_checkpoint = r.output_checkpoint;
  r2.output_checkpoint = dir.File("out/gen2.ckpt");
  r2.restore_input_optimizer = true;  // the same run's previous generation, as the pipeline's
  auto second = TrainGeneration(r2);
  ASSERT_TRUE(second.ok()) << second.error;
  EXPECT_EQ(second.stats.generation, 2);
  EXPECT_EQ(second.stats.new_files, 1);
  EXPECT_EQ(second.stats.new_samples, b);
  EXPECT_EQ(second.stats.total_samples, a + b);
  auto meta2 = model::ReadCheckpointMeta(r2.output_checkpoint);
  ASSERT_TRUE(meta2.ok());
  EXPECT_EQ(meta2.value().training_steps, first.stats.steps + second.stats.steps);
  auto data = DataStateFromJson(meta2.value().extra.at(kExtraData), "gen2");
  ASSERT_TRUE(data.ok()) << data.error();
  EXPECT_EQ(data.value().files.size(), 2u);
  EXPECT_EQ(data.value().batches_drawn, first.stats.steps + second.stats.steps);
  EXPECT_EQ(data.value().samples_consumed,
            (first.stats.steps + second.stats.steps) * r.config.batch_size);

  // Generation 3 with no new data trains no step (the reuse limit) but still writes.
  TrainRequest r3 = r2;
  r3.input_checkpoint = r2.output_checkpoint;
  r3.output_checkpoint = dir.File("out/gen3.ckpt");
  auto third = TrainGeneration(r3);
  ASSERT_TRUE(third.ok()) << third.error;
  EXPECT_EQ(third.stats.new_files, 0);
  EXPECT_EQ(third.stats.steps, 0);
  EXPECT_TRUE(fs::exists(r3.output_checkpoint));

  // The optimiser state went along: generation 2's momentum buffers are not zero.
  model::VeletasNet net = model::MakeNet(r.spec.arch);
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  ASSERT_TRUE(model::LoadCheckpointInto(r2.output_checkpoint, r.spec, net, &sgd).ok());
  double momentum = 0;
  for (const auto& [key, state] : sgd.state()) {
    momentum += static_cast<torch::optim::SGDParamState&>(*state)
                    .momentum_buffer()
                    .abs()
                    .sum()
                    .item<double>();
  }
  EXPECT_GT(momentum, 0);

  // An evaluator loads the trained network into its own module.
  auto evaluator = model::NetworkEvaluator::Load(r2.output_checkpoint, r.spec, model::NetConfig{});
  ASSERT_TRUE(evaluator.ok()) << evaluator.error();

  // Running a finished call again does nothing and leaves the output alone; a state file
  // left by a kill just after the output was written is cleared away.
  const std::string before = testing::ReadAll(r2.output_checkpoint);
  fs::copy_file(r2.output_checkpoint, TrainingStatePath(r2.output_checkpoint));
  auto again = TrainGeneration(r2);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again.stats.already_done);
  EXPECT_EQ(again.stats.steps, second.stats.steps);
  EXPECT_EQ(testing::ReadAll(r2.output_checkpoint), before);
  EXPECT_FALSE(fs::exists(TrainingStatePath(r2.output_checkpoint)));
}

// Issue 29: a checkpoint from elsewhere (not this run's previous generation) gives its weights
// only: its optimiser section, a Torch archive, is never parsed. Here it is junk that Torch's
// parser refuses when asked to read it, as for a checkpoint of the same run.
TEST(Trainer, AnInputFromElsewhereGivesItsWeightsOnly) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  WriteGames(dir.File("data/s_0.vzs"), 2, 1);
  TrainRequest r = QuickRequest(dir);
  r.steps = 2;
  ASSERT_TRUE(TrainGeneration(r).ok());
  auto sections = model::ReadCheckpointFile(r.output_checkpoint);
  ASSERT_TRUE(sections.ok()) << sections.error();
  auto meta = model::MetaFromJson(sections.value().meta_json, "gen1");
  ASSERT_TRUE(meta.ok());
  ASSERT_EQ(meta.value().optimizer, "sgd");
  sections.value().optimizer = std::string(4096, '\x5a');
  const std::string foreign = dir.File("foreign.ckpt");
  ASSERT_TRUE(model::WriteCheckpointFile(foreign, sections.value()).ok());
  std::vector<std::string> notes;
  TrainRequest from_elsewhere = r;
  from_elsewhere.input_checkpoint = foreign;
  from_elsewhere.output_checkpoint = dir.File("out/elsewhere.ckpt");
  from_elsewhere.log = [&notes](const std::string& n) { notes.push_back(n); };
  const TrainResult weights_only = TrainGeneration(from_elsewhere);
  ASSERT_TRUE(weights_only.ok()) << weights_only.error;
  EXPECT_EQ(weights_only.stats.steps, 2);
  bool noted = false;
  for (const std::string& n : notes) {
    noted |= n.find(
                 "foreign.ckpt holds sgd optimiser state; starting a fresh sgd optimiser "
                 "(weights only: not a checkpoint of this run)") != std::string::npos;
  }
  EXPECT_TRUE(noted);
  TrainRequest same_run = from_elsewhere;
  same_run.output_checkpoint = dir.File("out/same.ckpt");
  same_run.restore_input_optimizer = true;
  const TrainResult parsed = TrainGeneration(same_run);
  EXPECT_EQ(parsed.status, TrainStatus::kBadInput);
  EXPECT_NE(parsed.error.find("foreign.ckpt: cannot load checkpoint"), std::string::npos)
      << parsed.error;
}

TEST(Trainer, DivergenceFailsWithoutWritingTheOutput) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  WriteGames(dir.File("data/s_0.vzs"), 1, 8);
  TrainRequest r = QuickRequest(dir);
  // Weights blown up as by a diverged run (every parameter 1e30 times the fresh network's,
  // still finite in the file): the first forward pass leaves the float range, so the loss
  // is not finite, while every setting stays in the range TrainingConfig::Validate() allows.
  {
    auto blown = model::LoadCheckpoint(r.input_checkpoint, &r.spec);
    ASSERT_TRUE(blown.ok()) << blown.error();
    torch::NoGradGuard no_grad;
    for (torch::Tensor& p : blown.value().net->parameters()) p.mul_(1e30);
    ASSERT_TRUE(
        model::SaveCheckpoint(r.input_checkpoint, blown.value().net, nullptr, blown.value().meta)
            .ok());
  }
  ASSERT_TRUE(r.config.Validate().ok());
  r.steps = 6;
  const TrainResult result = TrainGeneration(r);
  EXPECT_EQ(result.status, TrainStatus::kFailed);
  EXPECT_NE(result.error.find("not finite"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(r.output_checkpoint));
}

TEST(Trainer, CorruptFileIsSkippedWithItsName) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  WriteGames(dir.File("data/s_0.vzs"), 1, 3);
  std::ofstream(dir.File("data/s_1.vzs"), std::ios::binary) << "VELZSMPL garbage";
  TrainRequest r = QuickRequest(dir);
  r.steps = 2;
  std::vector<std::string> notes;
  r.log = [&](const std::string& n) { notes.push_back(n); };
  const TrainResult result = TrainGeneration(r);
  ASSERT_TRUE(result.ok()) << result.error;
  ASSERT_EQ(result.stats.skipped.size(), 1u);
  EXPECT_NE(result.stats.skipped[0].find("s_1.vzs"), std::string::npos);
  EXPECT_EQ(result.stats.new_files, 1);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("s_1.vzs"), std::string::npos) << notes[0];
}

TEST(Trainer, NoDataMissingDataAndBadCheckpointsAreBadInput) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  TrainRequest r = QuickRequest(dir);
  // An empty directory: no data at all.
  TrainResult empty = TrainGeneration(r);
  EXPECT_EQ(empty.status, TrainStatus::kBadInput);
  EXPECT_NE(empty.error.find("no usable sample data"), std::string::npos) << empty.error;
  // Only corrupt files: still no usable data.
  std::ofstream(dir.File("data/bad.vzs"), std::ios::binary) << "not a sample file";
  TrainResult corrupt = TrainGeneration(r);
  EXPECT_EQ(corrupt.status, TrainStatus::kBadInput);
  EXPECT_NE(corrupt.error.find("no usable sample data"), std::string::npos) << corrupt.error;
  ASSERT_EQ(corrupt.stats.skipped.size(), 1u);
  EXPECT_NE(corrupt.stats.skipped[0].find("bad.vzs"), std::string::npos);
  // A missing directory.
  TrainRequest missing = r;
  missing.data = {dir.File("data"), dir.File("nowhere")};
  TrainResult m = TrainGeneration(missing);
  EXPECT_EQ(m.status, TrainStatus::kBadInput);
  EXPECT_NE(m.error.find("nowhere"), std::string::npos) << m.error;

  WriteGames(dir.File("data/good.vzs"), 1, 4);
  // A truncated input checkpoint.
  const std::string bytes = testing::ReadAll(r.input_checkpoint);
  TrainRequest truncated = r;
  truncated.input_checkpoint = dir.File("cut.ckpt");
  std::ofstream(truncated.input_checkpoint, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size() - 10));
  TrainResult t = TrainGeneration(truncated);
  EXPECT_EQ(t.status, TrainStatus::kBadInput);
  EXPECT_NE(t.error.find("cut.ckpt"), std::string::npos) << t.error;
  EXPECT_NE(t.error.find("truncated"), std::string::npos) << t.error;
  // A checkpoint of another architecture than the config's.
  TrainRequest other = r;
  other.spec.arch.channels = 24;
  TrainResult o = TrainGeneration(other);
  EXPECT_EQ(o.status, TrainStatus::kBadInput);
  EXPECT_NE(o.error.find("architecture mismatch"), std::string::npos) << o.error;
  // A sample file of another board size.
  WriteGames(dir.File("data/nine.vzs"), 1, 5, 9);
  TrainResult n = TrainGeneration(r);
  EXPECT_EQ(n.status, TrainStatus::kBadInput);
  EXPECT_NE(n.error.find("nine.vzs"), std::string::npos) << n.error;
  EXPECT_FALSE(fs::exists(r.output_checkpoint));
  // A config out of range: the learner refuses it with TrainingConfig::Validate()'s words
  // (the same the config reader shows with the file and line).
  TrainRequest bad = r;
  bad.config.window_max = bad.config.window_min - 1;
  TrainResult b = TrainGeneration(bad);
  EXPECT_EQ(b.status, TrainStatus::kBadInput);
  EXPECT_EQ(b.error, "training config: " + bad.config.Validate().error());
  EXPECT_NE(b.error.find("window_max: "), std::string::npos) << b.error;
  EXPECT_FALSE(fs::exists(r.output_checkpoint));
}

}  // namespace
}  // namespace veletas::training
