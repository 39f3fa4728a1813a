// The `training` config section: defaults, every key read, range, type and cross-key errors
// with the file, line and key, and the section inside a whole config.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "tests/config/config_test_util.h"

namespace veletas::config {
namespace {

std::string TrainingError(const std::string& yaml, training::TrainingConfig& out) {
  return testing::ParseError("training", yaml, ParseTrainingSection, out);
}

TEST(ConfigTraining, EmptySectionKeepsTheDefaults) {
  training::TrainingConfig c;
  ASSERT_EQ(TrainingError("", c), "");
  const training::TrainingConfig d;
  EXPECT_EQ(c.batch_size, d.batch_size);
  EXPECT_EQ(c.optimizer, d.optimizer);
  EXPECT_EQ(c.learning_rate, d.learning_rate);
  EXPECT_EQ(c.momentum, d.momentum);
  EXPECT_EQ(c.nesterov, d.nesterov);
  EXPECT_EQ(c.weight_decay, d.weight_decay);
  EXPECT_EQ(c.lr_schedule, d.lr_schedule);
  EXPECT_EQ(c.lr_step_boundaries, d.lr_step_boundaries);
  EXPECT_EQ(c.warmup_steps, d.warmup_steps);
  EXPECT_EQ(c.value_weight, d.value_weight);
  EXPECT_EQ(c.aux_weight, d.aux_weight);
  EXPECT_FALSE(d.aux_ignore_resigned);
  EXPECT_FALSE(d.value_cross_entropy);
  EXPECT_EQ(c.value_cross_entropy, d.value_cross_entropy);
  EXPECT_EQ(c.aux_ignore_resigned, d.aux_ignore_resigned);
  EXPECT_EQ(c.window_min, d.window_min);
  EXPECT_EQ(c.window_max, d.window_max);
  EXPECT_EQ(c.window_exponent, d.window_exponent);
  EXPECT_EQ(c.window_growth, d.window_growth);
  EXPECT_EQ(c.max_sample_reuse, d.max_sample_reuse);
  EXPECT_EQ(c.max_steps_per_generation, d.max_steps_per_generation);
  EXPECT_EQ(c.checkpoint_every, d.checkpoint_every);
  EXPECT_EQ(c.threads, d.threads);
  EXPECT_EQ(c.seed, d.seed);
  EXPECT_EQ(c.precision, training::TrainPrecision::kAuto);
  EXPECT_EQ(c.engine, training::TrainEngine::kAuto);
}

TEST(ConfigTraining, ReadsEveryKey) {
  training::TrainingConfig c;
  const std::string yaml =
      "  batch_size: 64\n  optimizer: adamw\n  learning_rate: 0.001\n  momentum: 0.8\n"
      "  nesterov: false\n  weight_decay: 0.01\n  lr_schedule: step\n"
      "  lr_step_boundaries: [1000, 5000]\n  lr_step_gamma: 0.5\n  lr_cosine_steps: 777\n"
      "  lr_min: 0.0001\n  warmup_steps: 50\n  value_weight: 1.5\n  aux_weight: 0.25\n"
      "  root_value_weight: 0.3\n  aux_ignore_resigned: true\n  value_loss: cross_entropy\n"
      "  window_min: 1000\n  window_max: 9000\n"
      "  window_exponent: 0.6\n  window_growth: 0.5\n  max_sample_reuse: 3\n"
      "  max_steps_per_generation: 123\n  checkpoint_every: 40\n  metrics_every: 20\n"
      "  threads: 3\n  prefetch_batches: 4\n  seed: 99\n  precision: bf16\n"
      "  engine: torch\n";
  ASSERT_EQ(TrainingError(yaml, c), "");
  EXPECT_EQ(c.batch_size, 64);
  EXPECT_EQ(c.optimizer, training::Optimizer::kAdamW);
  EXPECT_DOUBLE_EQ(c.learning_rate, 0.001);
  EXPECT_DOUBLE_EQ(c.momentum, 0.8);
  EXPECT_FALSE(c.nesterov);
  EXPECT_DOUBLE_EQ(c.weight_decay, 0.01);
  EXPECT_EQ(c.lr_schedule, training::LrSchedule::kStep);
  EXPECT_EQ(c.lr_step_boundaries, (std::vector<int64_t>{1000, 5000}));
  EXPECT_DOUBLE_EQ(c.lr_step_gamma, 0.5);
  EXPECT_EQ(c.lr_cosine_steps, 777);
  EXPECT_DOUBLE_EQ(c.lr_min, 0.0001);
  EXPECT_EQ(c.warmup_steps, 50);
  EXPECT_DOUBLE_EQ(c.value_weight, 1.5);
  EXPECT_DOUBLE_EQ(c.aux_weight, 0.25);
  EXPECT_DOUBLE_EQ(c.root_value_weight, 0.3);
  EXPECT_TRUE(c.aux_ignore_resigned);
  EXPECT_TRUE(c.value_cross_entropy);
  EXPECT_EQ(c.window_min, 1000);
  EXPECT_EQ(c.window_max, 9000);
  EXPECT_DOUBLE_EQ(c.window_exponent, 0.6);
  EXPECT_DOUBLE_EQ(c.window_growth, 0.5);
  EXPECT_DOUBLE_EQ(c.max_sample_reuse, 3);
  EXPECT_EQ(c.max_steps_per_generation, 123);
  EXPECT_EQ(c.checkpoint_every, 40);
  EXPECT_EQ(c.metrics_every, 20);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.prefetch_batches, 4);
  EXPECT_EQ(c.seed, 99u);
  EXPECT_EQ(c.precision, training::TrainPrecision::kBf16);
  EXPECT_EQ(c.engine, training::TrainEngine::kTorch);

  training::TrainingConfig cosine;
  ASSERT_EQ(TrainingError("  lr_schedule: cosine\n", cosine), "");
  EXPECT_EQ(cosine.lr_schedule, training::LrSchedule::kCosine);
  ASSERT_EQ(TrainingError("  lr_schedule: constant\n  optimizer: sgd\n", cosine), "");
  EXPECT_EQ(cosine.lr_schedule, training::LrSchedule::kConstant);
  EXPECT_EQ(cosine.optimizer, training::Optimizer::kSgd);
}

// Each bad value is rejected with the file, its line and the key, and says what is allowed.
TEST(ConfigTraining, RejectsBadValuesNamingLineAndKey) {
  struct Case {
    std::string yaml;
    std::string expected;
  };
  const Case cases[] = {
      {"  batch_size: 0\n", "test.yaml:2: training.batch_size: 0 is out of range"},
      {"  batch_size: many\n", "test.yaml:2: training.batch_size:"},
      {"  optimizer: adam\n", "test.yaml:2: training.optimizer:"},
      {"  learning_rate: 0\n", "test.yaml:2: training.learning_rate:"},
      {"  momentum: 1\n", "test.yaml:2: training.momentum:"},
      {"  weight_decay: -0.1\n", "test.yaml:2: training.weight_decay:"},
      {"  lr_schedule: linear\n", "test.yaml:2: training.lr_schedule:"},
      {"  value_loss: mse\n", "test.yaml:2: training.value_loss:"},
      {"  lr_step_boundaries: [500, 100]\n",
       "training.lr_step_boundaries: steps must be increasing"},
      {"  lr_step_boundaries: 100\n", "training.lr_step_boundaries: expected a list"},
      {"  learning_rate: 0.01\n  lr_min: 0.1\n", "test.yaml:3: training.lr_min:"},
      {"  warmup_steps: -1\n", "test.yaml:2: training.warmup_steps:"},
      {"  aux_weight: -1\n", "test.yaml:2: training.aux_weight:"},
      {"  root_value_weight: 2\n", "test.yaml:2: training.root_value_weight:"},
      {"  window_min: 0\n", "test.yaml:2: training.window_min:"},
      {"  window_min: 1000\n  window_max: 10\n", "test.yaml:3: training.window_max: 10 is below"},
      {"  window_exponent: 1.5\n", "test.yaml:2: training.window_exponent:"},
      {"  window_growth: 0\n", "test.yaml:2: training.window_growth:"},
      {"  max_sample_reuse: 0\n", "test.yaml:2: training.max_sample_reuse:"},
      {"  checkpoint_every: 0\n", "test.yaml:2: training.checkpoint_every:"},
      {"  metrics_every: 0\n", "test.yaml:2: training.metrics_every:"},
      {"  threads: -1\n", "test.yaml:2: training.threads:"},
      {"  momentum: 0\n  nesterov: true\n", "training.nesterov: needs a positive momentum"},
      {"  seed: -5\n", "test.yaml:2: training.seed:"},
      {"  batchsize: 5\n", "batchsize"},
      {"  precision: fp16\n", "test.yaml:2: training.precision:"},
      {"  precision: 16\n", "test.yaml:2: training.precision:"},
      {"  engine: fast\n", "test.yaml:2: training.engine:"},
  };
  for (const Case& k : cases) {
    training::TrainingConfig c;
    const std::string error = TrainingError(k.yaml, c);
    EXPECT_NE(error.find(k.expected), std::string::npos) << "yaml:\n"
                                                         << k.yaml << "error: " << error;
  }
}

// The ranges are the layer's: the reader's error is TrainingConfig::Validate()'s message with
// the file, line and section in front, and the values the layer accepts at its ends are read.
TEST(ConfigTraining, RangesAreTheLayersOwn) {
  training::TrainingConfig bad;
  bad.learning_rate = 0;
  ASSERT_FALSE(bad.Validate().ok());
  EXPECT_EQ(bad.Validate().error(), "learning_rate: 0 is out of range (0, 10]");
  training::TrainingConfig c;
  EXPECT_EQ(TrainingError("  learning_rate: 0\n", c),
            "test.yaml:2: training." + bad.Validate().error());
  bad = training::TrainingConfig{};
  bad.momentum = 1;
  c = training::TrainingConfig{};
  EXPECT_EQ(TrainingError("  momentum: 1\n", c), "test.yaml:2: training." + bad.Validate().error());
  // Both ends that the learner accepts are accepted by the reader too (they used to differ).
  c = training::TrainingConfig{};
  EXPECT_EQ(TrainingError("  momentum: 0.9995\n  window_exponent: 0.001\n", c), "");
  EXPECT_EQ(c.momentum, 0.9995);
  EXPECT_TRUE(training::TrainingConfig{}.Validate().ok());
}

TEST(ConfigTraining, IsASectionOfTheWholeConfig) {
  auto c = LoadConfigFromString("game:\n  size: 9\ntraining:\n  batch_size: 32\n", "run.yaml");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c.value().training.batch_size, 32);
  EXPECT_NE(c.value().resolved_yaml.find("window_exponent"), std::string::npos);
  auto bad = LoadConfigFromString("training:\n  bogus: 1\n", "run.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("bogus"), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace veletas::config
