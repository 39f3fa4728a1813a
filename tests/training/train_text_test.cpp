// training/train_text.h: the training request of a config and a training call in words.
#include "training/train_text.h"

#include <gtest/gtest.h>

namespace veletas::training {
namespace {

TEST(TrainText, TheRequestCarriesTheSettingsAndFiles) {
  TrainingConfig c;
  c.batch_size = 64;
  const model::ModelSpec spec{rules::RuleSet::kClassic, 9, model::NetConfig{}};
  const TrainRequest r =
      MakeTrainRequest(c, spec, model::Device::kCuda, "in.ckpt", {"a", "b"}, "out.ckpt");
  EXPECT_EQ(r.config.batch_size, 64);
  EXPECT_EQ(r.spec.rules, rules::RuleSet::kClassic);
  EXPECT_EQ(r.spec.size, 9);
  EXPECT_EQ(r.device, model::Device::kCuda);
  EXPECT_EQ(r.input_checkpoint, "in.ckpt");
  EXPECT_EQ(r.data, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.output_checkpoint, "out.ckpt");
  EXPECT_EQ(r.generation, -1);  // the input's + 1
  EXPECT_EQ(r.steps, -1);       // from the sample-reuse limit
}

TEST(TrainText, ACallInWords) {
  TrainStats s;
  s.generation = 3;
  s.steps = 100;
  s.global_steps = 300;
  s.resumed = true;
  s.resumed_from_step = 40;
  s.loss_total = 2.5;
  s.new_files = 2;
  s.new_samples = 800;
  s.window_samples = 900;
  s.total_samples = 1000;
  s.loop_samples_per_second = 1234.4;
  s.seconds = 12.34;
  s.skipped = {"x.vzs: truncated"};
  EXPECT_EQ(TrainStatsText(s, "g3.ckpt"),
            "g3.ckpt: generation 3, 100 steps (global 300) resumed at step 40; loss 2.5000 "
            "(policy 0.0000 value 0.0000 aux 0.0000 l2 0.0000); 2 new files, 800 new samples, "
            "window 900 of 1000 samples; 1234 samples/s; 12.3 s\n"
            "1 sample file(s) skipped (see above)\n");
  s.already_done = true;
  EXPECT_EQ(TrainStatsText(s, "g3.ckpt"),
            "g3.ckpt: generation 3 already trained from this input (100 steps)\n");
}

TEST(TrainText, TheProgressLineEndsWithTheTimeLeft) {
  TrainProgress p;
  p.generation = 1;
  p.step = 5;
  p.steps = 10;
  p.global_step = 15;
  p.eta_seconds = 65;
  const std::string text = TrainProgressText(p);
  EXPECT_EQ(text.rfind("gen 1 step 5/10 (global 15) loss ", 0), 0u) << text;
  EXPECT_EQ(text.substr(text.size() - 9), "ETA 1m05s") << text;
}

}  // namespace
}  // namespace veletas::training
