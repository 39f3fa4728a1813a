// Helpers shared by the training tests: temporary directories, a tiny network, synthetic
// sample files and a ready-made TrainRequest.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "data/sample_file.h"
#include "model/base/checkpoint_file.h"
#include "model/torch/model_files.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"
#include "training/metrics.h"
#include "training/synthetic_data.h"
#include "training/trainer.h"

namespace veletas::training::testing {

using test_support::TempDir;

using test_support::ReadAll;

// A small network so the tests stay fast.
inline model::NetConfig TinyArch() {
  model::NetConfig c;
  c.blocks = 1;
  c.channels = 16;
  c.head_channels = 8;
  c.value_hidden = 16;
  return c;
}

inline model::ModelSpec TinySpec(int size = 7) {
  return model::ModelSpec{rules::RuleSet::kStandard, size, TinyArch()};
}

// Writes one sample file of `games` random games; returns its sample count.
inline int64_t WriteGames(const std::string& path, int games, uint64_t seed, int size = 7,
                          double played_weight = 0.5) {
  const data::SampleFile f =
      RandomGameSamples(rules::RuleSet::kStandard, size, games, seed, played_weight);
  EXPECT_EQ(test_support::ErrorText(data::WriteSampleFile(path, f)), "");
  return static_cast<int64_t>(f.samples.size());
}

// A config for quick runs: small batches, single-threaded Torch, no warm-up.
inline TrainingConfig QuickConfig() {
  TrainingConfig c;
  c.batch_size = 16;
  c.learning_rate = 0.02;
  c.warmup_steps = 0;
  c.window_min = 100'000;
  c.window_max = 100'000;
  c.checkpoint_every = 4;
  c.metrics_every = 3;
  c.threads = 1;
  return c;
}

// A request training a fresh tiny network (written to <dir>/init.ckpt) on <dir>/data.
inline TrainRequest QuickRequest(const TempDir& dir, uint64_t init_seed = 1) {
  TrainRequest r;
  r.config = QuickConfig();
  r.spec = TinySpec();
  r.input_checkpoint = dir.File("init.ckpt");
  if (!std::filesystem::exists(r.input_checkpoint)) {
    EXPECT_TRUE(model::CreateInitialCheckpoint(r.input_checkpoint, r.spec, init_seed).ok());
  }
  r.data = {dir.File("data")};
  r.output_checkpoint = dir.File("out/gen1.ckpt");
  return r;
}

// Trains `r` once into <dir>/out_<name>/gen1.ckpt and reads that run's metrics line into
// `line`; fails the test fatally when training fails or the run logged other than one line
// (call under ASSERT_NO_FATAL_FAILURE).
inline void TrainAndReadMetrics(TrainRequest& r, const TempDir& dir, const std::string& name,
                                TrainResult* result, MetricsLine* line) {
  r.output_checkpoint = dir.File("out_" + name + "/gen1.ckpt");
  *result = TrainGeneration(r);
  ASSERT_TRUE(result->ok()) << result->error;
  auto metrics = ReadMetrics(dir.File("out_" + name + "/metrics.jsonl"));
  ASSERT_TRUE(metrics.ok()) << metrics.error();
  ASSERT_EQ(metrics.value().size(), 1u);
  *line = metrics.value().front();
}

}  // namespace veletas::training::testing
