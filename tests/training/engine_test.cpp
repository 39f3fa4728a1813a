// training.engine (training/train_precision.h ChooseTrainEngine): the choice as a pure function
// of the settings, the device and the CPU's features, with its fallbacks and notes (CPUs
// without AVX-512 or AVX-512 BF16, CUDA); and TrainGeneration on the oneDNN trunk: it reports
// the engine and learns what LibTorch's ops learn from the same start on the same batches.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "model/torch/checkpoint.h"
#include "model/torch/network.h"
#include "tests/training/test_util.h"
#include "training/metrics.h"
#include "training/train_precision.h"

namespace veletas::training {
namespace {

namespace fs = std::filesystem;
using testing::QuickRequest;
using testing::TempDir;
using testing::TrainAndReadMetrics;
using testing::WriteGames;

constexpr CpuFeatures kFull{.avx512_bf16 = true, .avx512 = true};
constexpr CpuFeatures kNoBf16{.avx512_bf16 = false, .avx512 = true};
constexpr CpuFeatures kNoAvx512{.avx512_bf16 = false, .avx512 = false};

bool Mentions(const std::string& note, const std::string& what) {
  return note.find(what) != std::string::npos;
}

// `c` runs `engine` at `precision`, and its note mentions `what`.
void ExpectChoice(const EngineChoice& c, TrainEngine engine, TrainPrecision precision,
                  const std::string& what) {
  EXPECT_EQ(c.engine, engine);
  EXPECT_EQ(c.precision, precision);
  EXPECT_TRUE(Mentions(c.note, what)) << c.note;
}

TEST(TrainEngine, AutoTakesOnednnOnACpuWithAvx512AndSaysSo) {
  const EngineChoice c = ChooseTrainEngine(TrainEngine::kAuto, TrainPrecision::kFp32, false, kFull);
  EXPECT_EQ(c.engine, TrainEngine::kOnednn);
  EXPECT_EQ(c.precision, TrainPrecision::kFp32);
  EXPECT_TRUE(Mentions(c.note, "training.engine auto: onednn")) << c.note;
}

TEST(TrainEngine, AutoFallsBackToTorchWithoutAvx512) {
  const EngineChoice c =
      ChooseTrainEngine(TrainEngine::kAuto, TrainPrecision::kFp32, false, kNoAvx512);
  ExpectChoice(c, TrainEngine::kTorch, TrainPrecision::kFp32, "lacks AVX-512");
  // bf16 asked too: LibTorch's own fallback to fp32 is said as well.
  const EngineChoice b =
      ChooseTrainEngine(TrainEngine::kAuto, TrainPrecision::kBf16, false, kNoAvx512);
  ExpectChoice(b, TrainEngine::kTorch, TrainPrecision::kFp32, "lacks AVX-512");
  EXPECT_TRUE(Mentions(b.note, "avx512_bf16")) << b.note;
}

// The oneDNN path trains in bf16 where asked on a CPU with AVX-512 BF16; without it in fp32,
// with a note naming the missing feature.
TEST(TrainEngine, OnednnRunsBf16WhereTheCpuHasIt) {
  for (const TrainEngine e : {TrainEngine::kAuto, TrainEngine::kOnednn}) {
    const EngineChoice c = ChooseTrainEngine(e, TrainPrecision::kBf16, false, kFull);
    EXPECT_EQ(c.engine, TrainEngine::kOnednn);
    EXPECT_EQ(c.precision, TrainPrecision::kBf16);
    EXPECT_FALSE(Mentions(c.note, "avx512_bf16")) << c.note;
    const EngineChoice f = ChooseTrainEngine(e, TrainPrecision::kBf16, false, kNoBf16);
    ExpectChoice(f, TrainEngine::kOnednn, TrainPrecision::kFp32, "avx512_bf16");
    EXPECT_TRUE(Mentions(f.note, "training in fp32")) << f.note;
  }
}

// training.precision auto (the default): bf16 on the oneDNN engine of a CPU with AVX-512 BF16,
// fp32 elsewhere (without it, on LibTorch's path, on CUDA); always a note saying which.
TEST(TrainEngine, AutoPrecisionTakesBf16OnlyOnOnednnWithAvx512Bf16) {
  const TrainPrecision kAuto = TrainPrecision::kAuto;
  for (const TrainEngine e : {TrainEngine::kAuto, TrainEngine::kOnednn}) {
    ExpectChoice(ChooseTrainEngine(e, kAuto, false, kFull), TrainEngine::kOnednn,
                 TrainPrecision::kBf16, "training.precision auto: bf16");
    const EngineChoice f = ChooseTrainEngine(e, kAuto, false, kNoBf16);
    ExpectChoice(f, TrainEngine::kOnednn, TrainPrecision::kFp32, "training.precision auto: fp32");
    EXPECT_TRUE(Mentions(f.note, "avx512_bf16")) << f.note;
  }
  ExpectChoice(ChooseTrainEngine(TrainEngine::kTorch, kAuto, false, kFull), TrainEngine::kTorch,
               TrainPrecision::kFp32, "training.precision auto: fp32");
  ExpectChoice(ChooseTrainEngine(TrainEngine::kAuto, kAuto, false, kNoAvx512), TrainEngine::kTorch,
               TrainPrecision::kFp32, "training.precision auto: fp32");
  ExpectChoice(ChooseTrainEngine(TrainEngine::kAuto, kAuto, true, kFull), TrainEngine::kTorch,
               TrainPrecision::kFp32, "training.precision auto: fp32");
}

TEST(TrainEngine, CudaTakesTorch) {
  for (const TrainEngine e : {TrainEngine::kAuto, TrainEngine::kOnednn}) {
    const EngineChoice c = ChooseTrainEngine(e, TrainPrecision::kBf16, true, kNoAvx512);
    EXPECT_EQ(c.engine, TrainEngine::kTorch);
    EXPECT_EQ(c.precision, TrainPrecision::kBf16);  // autocast on CUDA
    EXPECT_TRUE(Mentions(c.note, "CUDA")) << c.note;
  }
}

TEST(TrainEngine, ExplicitSettingsRunAsSetWithoutNotes) {
  const EngineChoice torch =
      ChooseTrainEngine(TrainEngine::kTorch, TrainPrecision::kFp32, false, kFull);
  EXPECT_EQ(torch.engine, TrainEngine::kTorch);
  EXPECT_EQ(torch.note, "");
  const EngineChoice onednn =
      ChooseTrainEngine(TrainEngine::kOnednn, TrainPrecision::kFp32, false, kFull);
  EXPECT_EQ(onednn.engine, TrainEngine::kOnednn);
  EXPECT_EQ(onednn.precision, TrainPrecision::kFp32);
  EXPECT_EQ(onednn.note, "");
  const EngineChoice bf16 =
      ChooseTrainEngine(TrainEngine::kTorch, TrainPrecision::kBf16, false, kFull);
  EXPECT_EQ(bf16.engine, TrainEngine::kTorch);
  EXPECT_EQ(bf16.precision, TrainPrecision::kBf16);
  EXPECT_EQ(bf16.note, "");
  // onednn is honoured on a CPU without AVX-512 (auto would not pick it there).
  EXPECT_EQ(ChooseTrainEngine(TrainEngine::kOnednn, TrainPrecision::kFp32, false, kNoAvx512).engine,
            TrainEngine::kOnednn);
}

// Four steps of TrainGeneration from the same checkpoint on the same batches with each engine:
// the metrics' losses and the output weights agree (fp32 rounding), and the stats name the
// engine.
TEST(TrainEngine, OnednnTrainsAsLibTorchDoes) {
  TempDir dir;
  fs::create_directories(dir.File("data"));
  WriteGames(dir.File("data/a.vzs"), 6, 31);
  model::VeletasNet nets[2] = {nullptr, nullptr};
  MetricsLine lines[2];
  const TrainEngine engines[2] = {TrainEngine::kTorch, TrainEngine::kOnednn};
  for (int i = 0; i < 2; ++i) {
    TrainRequest r = QuickRequest(dir);
    r.config.engine = engines[i];
    r.config.precision = TrainPrecision::kFp32;
    r.config.metrics_every = 4;
    r.steps = 4;
    const std::string name = TrainEngineName(engines[i]);
    TrainResult result;
    ASSERT_NO_FATAL_FAILURE(TrainAndReadMetrics(r, dir, name, &result, &lines[i]));
    EXPECT_EQ(result.stats.engine, name);
    auto loaded = model::LoadCheckpoint(r.output_checkpoint, &r.spec);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    nets[i] = loaded.value().net;
  }
  EXPECT_NEAR(lines[1].loss_policy, lines[0].loss_policy, 1e-4 * lines[0].loss_policy);
  EXPECT_NEAR(lines[1].loss_value, lines[0].loss_value, 1e-4 * lines[0].loss_value);
  EXPECT_NEAR(lines[1].loss_aux, lines[0].loss_aux, 1e-4 * lines[0].loss_aux);
  const auto a = model::NamedTensors(nets[0]);
  const auto b = model::NamedTensors(nets[1]);
  for (size_t k = 0; k < a.size(); ++k) {
    const double diff = (b[k].second - a[k].second).norm().item<double>();
    EXPECT_LE(diff, 1e-4 * a[k].second.norm().item<double>() + 1e-6) << a[k].first;
  }
}

// training.precision bf16 on the oneDNN path (a CPU with AVX-512 BF16): TrainGeneration runs
// it (the stats say onednn bf16) and the loss it reports is finite and close to fp32's first
// step (model/onednn_trunk_test.cpp holds the gradients' agreement).
TEST(TrainEngine, OnednnTrainsInBf16WhereTheCpuHasIt) {
  if (!ThisCpu().avx512_bf16) GTEST_SKIP() << "this CPU lacks AVX-512 BF16";
  TempDir dir;
  fs::create_directories(dir.File("data"));
  WriteGames(dir.File("data/a.vzs"), 6, 32);
  MetricsLine lines[2];
  const TrainPrecision precisions[2] = {TrainPrecision::kFp32, TrainPrecision::kBf16};
  for (int i = 0; i < 2; ++i) {
    TrainRequest r = QuickRequest(dir);
    r.config.engine = TrainEngine::kOnednn;
    r.config.precision = precisions[i];
    r.config.metrics_every = 1;
    r.steps = 1;
    const std::string name = TrainPrecisionName(precisions[i]);
    TrainResult result;
    ASSERT_NO_FATAL_FAILURE(TrainAndReadMetrics(r, dir, name, &result, &lines[i]));
    EXPECT_EQ(result.stats.engine, "onednn");
    EXPECT_EQ(result.stats.precision, name);
  }
  EXPECT_NEAR(lines[1].loss_policy, lines[0].loss_policy, 0.02 * lines[0].loss_policy);
  EXPECT_NEAR(lines[1].loss_value, lines[0].loss_value, 0.02 * lines[0].loss_value + 1e-3);
}

}  // namespace
}  // namespace veletas::training
